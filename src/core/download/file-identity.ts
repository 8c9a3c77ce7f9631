/** The headers of an answer, as `Headers` gives them (names in any case). */
export interface HeaderSource {
  get(name: string): string | null;
}

/** What a host says of a whole file, read from its answer's headers. */
export interface FileIdentity {
  /** The whole file's size in bytes; null when the host did not say. */
  size: number | null;
  /** The file's sha256, 64 lowercase hex digits; null when the host gives none. */
  sha256: string | null;
  /** A token that changes when the file changes (an entity tag, else a date); null if none. */
  validator: string | null;
}

export const UNKNOWN_FILE: FileIdentity = { size: null, sha256: null, validator: null };

/** An entity tag without its weak mark and quotes: `W/"abc"` and `"abc"` are both `abc`. */
export function normaliseEtag(value: string | null): string | null {
  if (value === null) return null;
  const bare = value
    .trim()
    .replace(/^W\//, '')
    .replace(/^"(.*)"$/, '$1');
  return bare === '' ? null : bare;
}

function byteCount(value: string | null): number | null {
  if (value === null || !/^\s*\d+\s*$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

/** The total of a `Content-Range` (`bytes 0-99/1234`, or `bytes *` and the total); null when unknown. */
export function contentRangeTotal(value: string | null): number | null {
  const match = value === null ? null : /^\s*bytes\s+(?:\d+-\d+|\*)\/(\d+)\s*$/i.exec(value);
  return match ? byteCount(match[1]!) : null;
}

/** The first byte of a `Content-Range` (`bytes 100-199/1234` starts at 100); null if none. */
export function contentRangeStart(value: string | null): number | null {
  const match = value === null ? null : /^\s*bytes\s+(\d+)-\d+\/(?:\d+|\*)\s*$/i.exec(value);
  return match ? byteCount(match[1]!) : null;
}

/**
 * What an answer says of the whole file. The hub answers a large (LFS) file with
 * `X-Linked-Size` (its size) and `X-Linked-Etag` (its sha256), on the redirect to its storage
 * (and an `ETag` equal to the sha256); a plain file's `ETag` is a git object id (40 hex digits),
 * not a checksum of the bytes. So an entity tag of 64 hex digits is read as the sha256, any
 * other only as a validator. `Content-Length` is the file's size only on a whole, uncompressed
 * answer (on 206 it is the part's; with `Content-Encoding` it counts the compressed bytes).
 */
export function fileIdentity(status: number, headers: HeaderSource): FileIdentity {
  const etag = normaliseEtag(headers.get('x-linked-etag') ?? headers.get('etag'));
  const encoding = headers.get('content-encoding');
  const whole = status === 200 && (encoding === null || /^\s*identity\s*$/i.test(encoding));
  const size =
    byteCount(headers.get('x-linked-size')) ??
    contentRangeTotal(headers.get('content-range')) ??
    (whole ? byteCount(headers.get('content-length')) : null);
  return {
    size,
    sha256: etag !== null && /^[0-9a-f]{64}$/i.test(etag) ? etag.toLowerCase() : null,
    validator: etag ?? headers.get('last-modified'),
  };
}

/** `first`, its unknowns filled from `second` (a redirect's headers, then its target's). */
export function mergeIdentity(first: FileIdentity, second: FileIdentity): FileIdentity {
  return {
    size: first.size ?? second.size,
    sha256: first.sha256 ?? second.sha256,
    validator: first.validator ?? second.validator,
  };
}

/**
 * Whether two answers can be of the same file: nothing they both state differs. A host that
 * states nothing is taken at its word (the size and the sha256 are checked at the end).
 */
export function sameFile(a: FileIdentity, b: FileIdentity): boolean {
  const differ = <T>(x: T | null, y: T | null) => x !== null && y !== null && x !== y;
  return (
    !differ(a.size, b.size) && !differ(a.sha256, b.sha256) && !differ(a.validator, b.validator)
  );
}
