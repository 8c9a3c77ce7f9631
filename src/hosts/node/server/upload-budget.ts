import { ServiceError } from '../../../core/contract/errors';

const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));

/**
 * The disk that uploads still being read may hold together. A request takes its place only once
 * its upload has arrived, so that a client that sends slowly holds a socket and the few bytes it
 * sent, never a place; this keeps the uploads in flight, which hold no place, within a bound of
 * their own: each byte is counted as it arrives, and given back once the read ends (the request
 * then holds a place, which bounds its file, or is gone).
 */
export class UploadBudget {
  private bytes = 0;
  private reading = 0;

  constructor(readonly maxBytes: number) {}

  /** Uploads being read now, and the bytes they hold. */
  get load(): { reading: number; bytes: number } {
    return { reading: this.reading, bytes: this.bytes };
  }

  /** One upload's share: counts its bytes as they come, and gives them all back at its end. */
  open(): UploadShare {
    this.reading++;
    let held = 0;
    let closed = false;
    return {
      take: (bytes: number) => {
        if (this.bytes + bytes > this.maxBytes) {
          return new ServiceError(
            'too_many_requests',
            `The service is busy receiving other uploads (${mb(this.maxBytes)} MB at most at once); send the request again in a moment.`,
          );
        }
        this.bytes += bytes;
        held += bytes;
        return null;
      },
      close: () => {
        if (closed) return;
        closed = true;
        this.bytes -= held;
        this.reading--;
      },
    };
  }
}

export interface UploadShare {
  /** Counts `bytes` more; the 429 to answer with when they do not fit (nothing is counted). */
  take(bytes: number): ServiceError | null;
  /** Gives back every byte counted; safe to call more than once. */
  close(): void;
}
