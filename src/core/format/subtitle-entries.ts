import { cueMilliseconds, formatTimecode } from './timecode';
import { cueTextLine } from './cue-text';

export interface TimedText {
  transcription: string;
  time_begin: number;
  time_end: number;
  /** A diarized segment's speaker starts its text line; `speaker_not_activated` does not. */
  speaker?: string;
}

/** The shared layout of SRT and VTT entries: index from 1, timecode line, text line. */
export function subtitleEntries(
  segments: readonly TimedText[],
  separator: ',' | '.',
  escape: (text: string) => string = (t) => t,
): string[] {
  return segments.map((segment, i) => {
    const [begin, end] = cueMilliseconds(segment.time_begin, segment.time_end);
    const times = `${formatTimecode(begin, separator)} --> ${formatTimecode(end, separator)}`;
    return `${i + 1}\n${times}\n${escape(cueTextLine(segment.transcription, segment.speaker))}`;
  });
}
