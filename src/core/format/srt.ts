import { subtitleEntries, type TimedText } from './subtitle-entries';

/** SubRip text (spec 2.8): entries separated by one blank line, ending with a newline. */
export function renderSrt(segments: readonly TimedText[]): string {
  const entries = subtitleEntries(segments, ',');
  return entries.length === 0 ? '' : `${entries.join('\n\n')}\n`;
}
