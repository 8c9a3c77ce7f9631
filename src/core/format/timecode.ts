/** Seconds to whole milliseconds; negative or non-finite times become 0. */
export function toMilliseconds(seconds: number): number {
  if (!Number.isFinite(seconds) || seconds <= 0) return 0;
  return Math.round(seconds * 1000);
}

/**
 * Begin and end of a cue in milliseconds. Rounding both ends separately could put the end
 * before the begin (e.g. 1.0004 -> 1.0005 s), so the end is never earlier than the begin.
 */
export function cueMilliseconds(begin: number, end: number): [number, number] {
  const b = toMilliseconds(begin);
  return [b, Math.max(b, toMilliseconds(end))];
}

/**
 * `HH:MM:SS<sep>mmm`. Hours take as many digits as they need past 99 (the formats set no
 * upper bound; parsers read any number of hour digits).
 */
export function formatTimecode(ms: number, separator: ',' | '.'): string {
  const hours = Math.floor(ms / 3_600_000);
  const minutes = Math.floor(ms / 60_000) % 60;
  const seconds = Math.floor(ms / 1000) % 60;
  const millis = ms % 1000;
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(hours, 2)}:${pad(minutes, 2)}:${pad(seconds, 2)}${separator}${pad(millis, 3)}`;
}

/** `H:MM:SS` past an hour, `M:SS` before, as a reader counts (and chapter lists write). */
export function clockTime(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor(whole / 60) % 60;
  const s = String(whole % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
