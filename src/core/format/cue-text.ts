/**
 * The text line of one subtitle entry: one line (an entry has exactly three lines, spec 2.8),
 * inner whitespace collapsed, and the leading space the spec requires.
 */
export function cueTextLine(transcription: string): string {
  const flat = transcription.replace(/\s+/g, ' ').trim();
  return ` ${flat}`;
}
