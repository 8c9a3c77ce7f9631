import type { Segment } from '../contract/response';
import { hasSpeaker } from './cue-text';

/**
 * Plain text: one line per segment, without the leading space, ending with a newline. When
 * diarization labelled the segments, each line starts with `speaker: ` so a reader can follow
 * the conversation.
 */
export function renderTxt(segments: readonly Pick<Segment, 'transcription' | 'speaker'>[]): string {
  const lines = segments.map((s) => {
    const text = s.transcription.replace(/\s+/g, ' ').trim();
    return hasSpeaker(s.speaker) ? `${s.speaker.trim()}: ${text}` : text;
  });
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
