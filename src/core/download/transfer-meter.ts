import { megabytes } from './integrity';

/**
 * Speed and time left of a download from samples of (seconds, bytes received so far). The speed
 * is that of the last `windowSeconds`, so a connection that slows down or resumes after a pause
 * is read as it is now, not as its average since the start.
 */
export class TransferMeter {
  private samples: { seconds: number; bytes: number }[] = [];

  constructor(private readonly windowSeconds = 5) {}

  record(seconds: number, bytes: number): void {
    const last = this.samples.at(-1);
    // Fewer bytes than before: the count started again (a file fetched again from its start).
    if (last && bytes < last.bytes) this.samples = [];
    this.samples.push({ seconds, bytes });
    while (this.samples.length > 2 && seconds - this.samples[1]!.seconds >= this.windowSeconds) {
      this.samples.shift();
    }
  }

  /** Bytes a second over the window; null until half a second of samples is there. */
  bytesPerSecond(): number | null {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.seconds - first.seconds < 0.5) return null;
    return (last.bytes - first.bytes) / (last.seconds - first.seconds);
  }

  /** Seconds until `total` bytes at the present speed; null when it cannot be told. */
  secondsLeft(total: number | null): number | null {
    const speed = this.bytesPerSecond();
    const last = this.samples.at(-1);
    if (total === null || speed === null || speed <= 0 || !last) return null;
    return Math.max(0, total - last.bytes) / speed;
  }
}

/** A duration as a person says it: "8 s", "3 min", "1 h", "1 h 20 min". */
export function durationText(seconds: number): string {
  const s = Math.max(1, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = `${Math.floor(minutes / 60)} h`;
  return minutes % 60 === 0 ? hours : `${hours} ${minutes % 60} min`;
}

/**
 * A download's progress in words: "12.3 of 40.1 MB · 2.1 MB/s · about 13 s left"; parts that
 * are not known yet are left out ("12.3 MB").
 */
export function transferDetail(
  loaded: number,
  total: number | null,
  bytesPerSecond: number | null,
  secondsLeft: number | null,
): string {
  const parts = [
    total === null || total <= 0
      ? megabytes(loaded)
      : `${(loaded / 1e6).toFixed(1)} of ${megabytes(total)}`,
  ];
  if (bytesPerSecond !== null) parts.push(`${megabytes(bytesPerSecond)}/s`);
  if (secondsLeft !== null && total !== null && loaded < total) {
    parts.push(`about ${durationText(secondsLeft)} left`);
  }
  return parts.join(' · ');
}
