import { subtitleEntries, type TimedText } from './subtitle-entries';

/**
 * WebVTT cue text may not hold `&`, `<` or `-->` literally (the parser would read them as
 * markup or a timing line), so they are written as character references.
 */
export function escapeCueText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * WebVTT text (spec 2.8): `WEBVTT`, a blank line, then entries laid out as in SRT. No STYLE or
 * cue settings are emitted: players style captions themselves. The one NOTE is a line of a
 * script that nobody said, in its place (`NOTE Not said: …`).
 */
export function renderVtt(segments: readonly TimedText[]): string {
  const entries = subtitleEntries(segments, '.', escapeCueText, true);
  return entries.length === 0 ? 'WEBVTT\n' : `WEBVTT\n\n${entries.join('\n\n')}\n`;
}
