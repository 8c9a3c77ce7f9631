/** A short clock reading for the UI: m:ss, or h:mm:ss past an hour. */
export function clock(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor(total / 60) % 60;
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/**
 * A length of time for the UI, to the nearest second: an 11.98-s file lasts 0:12, as the
 * browser's own player says. (`clock` truncates, as positions in a recording are read.)
 */
export function length(seconds: number): string {
  return clock(Math.round(seconds));
}
