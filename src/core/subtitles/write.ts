import { formatTimecode } from '../format/timecode';
import { escapeCueText } from '../format/vtt';
import { ms, type SubtitleCue } from './cue';

/** Cues as SubRip (`srt`) or WebVTT (`vtt`) text. */
export function renderCues(cues: readonly SubtitleCue[], format: 'srt' | 'vtt'): string {
  const separator = format === 'srt' ? ',' : '.';
  const escape = format === 'srt' ? (t: string) => t : escapeCueText;
  const entries = cues.map(
    (cue, i) =>
      `${i + 1}\n${formatTimecode(ms(cue.begin), separator)} --> ${formatTimecode(ms(cue.end), separator)}\n${cue.lines.map(escape).join('\n')}`,
  );
  const body = entries.join('\n\n');
  if (format === 'vtt') return entries.length === 0 ? 'WEBVTT\n' : `WEBVTT\n\n${body}\n`;
  return entries.length === 0 ? '' : `${body}\n`;
}
