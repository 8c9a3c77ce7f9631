import type { Segment } from '../contract/response';
import { hasSpeaker } from './cue-text';

/**
 * Plain text: one line per segment, without the leading space, ending with a newline. When
 * diarization labelled the segments, each line starts with `speaker: ` so a reader can follow
 * the conversation. A line of a script that nobody said is left out: the text is what was said.
 */
export function renderTxt(
  segments: readonly Pick<Segment, 'transcription' | 'speaker' | 'not_said'>[],
): string {
  const lines = segments
    .filter((s) => !s.not_said)
    .map((s) => {
      const text = s.transcription.replace(/\s+/g, ' ').trim();
      return hasSpeaker(s.speaker) ? `${s.speaker.trim()}: ${text}` : text;
    });
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
