import { SPEAKER_NOT_ACTIVATED, type Segment } from '../contract/response';

/**
 * Plain text: one line per segment, without the leading space, ending with a newline. When
 * diarization labelled the segments, each line starts with `speaker: ` so a reader can follow
 * the conversation.
 */
export function renderTxt(segments: readonly Pick<Segment, 'transcription' | 'speaker'>[]): string {
  const lines = segments.map((s) => {
    const text = s.transcription.replace(/\s+/g, ' ').trim();
    return s.speaker === SPEAKER_NOT_ACTIVATED ? text : `${s.speaker}: ${text}`;
  });
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}
