import type { FileIdentity } from './file-identity';

/** Whether the bytes that arrived are the file the host announced. */
export type IntegrityVerdict =
  | { ok: true }
  | { ok: false; problem: 'size'; expected: number; received: number }
  | { ok: false; problem: 'sha256'; expected: string; received: string };

/**
 * The verdict on a finished download: its size against the announced size, then its sha256
 * against the announced one (`receivedSha256` is null where it could not be computed).
 */
export function integrityVerdict(
  announced: FileIdentity,
  receivedSize: number,
  receivedSha256: string | null,
): IntegrityVerdict {
  if (announced.size !== null && announced.size !== receivedSize) {
    return { ok: false, problem: 'size', expected: announced.size, received: receivedSize };
  }
  if (announced.sha256 !== null && receivedSha256 !== null && announced.sha256 !== receivedSha256) {
    return { ok: false, problem: 'sha256', expected: announced.sha256, received: receivedSha256 };
  }
  return { ok: true };
}

/** 1234567 as "1,234,567". */
export function groupedDigits(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * Why a file was refused, as the middle of a model failure's sentence ("… could not be loaded
 * from HOST: <this>. Check the model …").
 */
export function integrityFailure(file: string, verdict: Exclude<IntegrityVerdict, { ok: true }>) {
  if (verdict.problem === 'size') {
    return `its file ${file} arrived with ${groupedDigits(verdict.received)} bytes where the host announced ${groupedDigits(verdict.expected)}, so it was damaged on the way and was not kept`;
  }
  return `its file ${file} arrived with a sha256 checksum (${verdict.received.slice(0, 12)}…) other than the one the host announced (${verdict.expected.slice(0, 12)}…), so it was damaged on the way and was not kept`;
}

/** Why a download that kept breaking was given up, the received part kept for the next try. */
export function brokenDownload(file: string, tries: number, received: number, size: number | null) {
  const part = size === null ? megabytes(received) : `${megabytes(received)} of ${megabytes(size)}`;
  return `the download of its file ${file} broke ${tries} times in a row (${part} received; they are kept, and the next try goes on from there)`;
}

/** Why a download was stopped: the host's file changed while it came. */
export function changedDuringDownload(file: string) {
  return `its file ${file} changed on the host while it downloaded`;
}

/** Bytes in megabytes with one decimal ("12.3 MB"), as download progress says them. */
export function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}
