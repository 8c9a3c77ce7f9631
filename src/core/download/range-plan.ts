import { contentRangeStart, sameFile, type FileIdentity, type HeaderSource } from './file-identity';

/** The `Range` header that asks for the rest of a file of which `received` bytes are kept. */
export function rangeHeader(received: number): string | null {
  return received > 0 ? `bytes=${received}-` : null;
}

/** What to do with the answer to a request for a file, `received` bytes of it kept. */
export type ResumeStep =
  /** The answer's body continues the kept bytes: append it. */
  | { kind: 'append' }
  /** The host sent the file from its start (it has no ranges): skip the bytes already kept. */
  | { kind: 'skip'; bytes: number }
  /** Nothing is left to fetch: the kept bytes are the whole file. */
  | { kind: 'complete' }
  /** The file on the host is not the one the kept bytes came from: start again from nothing. */
  | { kind: 'changed' };

export interface RangeAnswer {
  status: number;
  headers: HeaderSource;
  /** What the answer (and any redirect before it) says of the whole file. */
  identity: FileIdentity;
}

/**
 * The step for an answer (status 200, 206 or 416) to `rangeHeader(received)`. A 206 must start
 * exactly at `received` (where it says where it starts); a 200 is the whole file again (a host without ranges, or one that
 * ignored the range); a 416 means the range starts at or past the end.
 */
export function resumeStep(
  kept: { identity: FileIdentity; received: number },
  answer: RangeAnswer,
): ResumeStep {
  if (!sameFile(kept.identity, answer.identity)) return { kind: 'changed' };
  if (answer.status === 200) return { kind: 'skip', bytes: kept.received };
  if (answer.status === 206) {
    // A host of another origin that does not expose `Content-Range` hides the start: the answer
    // to the range asked is taken as it (the size and sha256 are checked at the end).
    const start = contentRangeStart(answer.headers.get('content-range'));
    return start === null || start === kept.received ? { kind: 'append' } : { kind: 'changed' };
  }
  if (answer.status === 416 && kept.received > 0) {
    const size = answer.identity.size ?? kept.identity.size;
    return size === kept.received ? { kind: 'complete' } : { kind: 'changed' };
  }
  return { kind: 'changed' };
}
