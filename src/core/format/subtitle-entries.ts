import { cueMilliseconds, formatTimecode, toMilliseconds } from './timecode';
import { cueTextLine } from './cue-text';

export interface TimedText {
  transcription: string;
  time_begin: number;
  time_end: number;
  /** A diarized segment's speaker starts its text line; `speaker_not_activated` does not. */
  speaker?: string;
  /** A line of a script that nobody said: it has no time, so it is never a cue. */
  not_said?: true;
}

/**
 * How long an entry whose segment takes no time stays up: until the next entry starts, at most
 * this long (and 1 ms at least), so that no entry ends where it starts.
 */
const EMPTY_ENTRY_MS = 1000;

/**
 * The shared layout of SRT and VTT entries: index from 1, timecode line, text line. A line of a
 * script nobody said is left out, or written as a `NOTE` block in its place (`notes`, for VTT,
 * whose NOTE a player does not show).
 */
export function subtitleEntries(
  segments: readonly TimedText[],
  separator: ',' | '.',
  escape: (text: string) => string = (t) => t,
  notes = false,
): string[] {
  const said = segments.filter((s) => !s.not_said);
  const entries: string[] = [];
  let index = 0;
  for (const segment of segments) {
    const text = escape(cueTextLine(segment.transcription, segment.speaker));
    if (segment.not_said) {
      if (notes) entries.push(`NOTE Not said:${text.replace(/^(?! )/, ' ')}`);
      continue;
    }
    const [begin, rounded] = cueMilliseconds(segment.time_begin, segment.time_end);
    let end = rounded;
    if (end === begin) {
      const next = said[index + 1];
      const room = next === undefined ? EMPTY_ENTRY_MS : toMilliseconds(next.time_begin) - begin;
      end = begin + Math.max(1, Math.min(EMPTY_ENTRY_MS, room));
    }
    index++;
    const times = `${formatTimecode(begin, separator)} --> ${formatTimecode(end, separator)}`;
    entries.push(`${index}\n${times}\n${text}`);
  }
  return entries;
}
