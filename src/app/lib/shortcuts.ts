/** Seconds the back and forward shortcuts move playback. */
export const SKIP_SECONDS = 5;

/** The keyboard shortcuts of the result, as the app lists them. */
export const SHORTCUTS: { keys: string[]; action: string }[] = [
  { keys: ['K'], action: 'Play or pause' },
  { keys: ['J'], action: `Back ${SKIP_SECONDS} seconds` },
  { keys: ['L'], action: `Forward ${SKIP_SECONDS} seconds` },
  { keys: ['['], action: 'Previous segment' },
  { keys: [']'], action: 'Next segment' },
  { keys: ['Ctrl', 'Z'], action: 'Undo a correction' },
  { keys: ['Ctrl', 'Shift', 'Z'], action: 'Redo' },
  { keys: ['← / →'], action: 'Previous or next word, in a segment' },
  { keys: ['F2'], action: 'Correct the chosen word' },
];

/** Where the previous and next segment shortcuts go from `time`. */
export function segmentStartNear(
  starts: readonly number[],
  time: number,
  direction: 'previous' | 'next',
): number | null {
  const sorted = [...starts].sort((a, b) => a - b);
  if (direction === 'next') return sorted.find((s) => s > time + 0.05) ?? null;
  // Half a second of grace, so that pressing it just after a segment starts goes one further back.
  return sorted.filter((s) => s < time - 0.5).at(-1) ?? (sorted.length > 0 ? 0 : null);
}
