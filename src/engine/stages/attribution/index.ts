/**
 * The speaker-attribution stage. In: the recognised segments and the speaker turns that
 * diarization found. Out: each segment with its speaker (a segment that spans a change of
 * speaker split where the speaker changes), speakers labelled `speaker_0`, `speaker_1`, ... in
 * order of first appearance, and the turns under the same labels.
 */
import type { RecognisedSegment } from '../../../core/assemble/response';
import {
  attributeSpeakers,
  speakerLabels,
  type SpeakerTurn,
} from '../../../core/assemble/speakers';
import type { StageContext } from '../../stage-context';

export interface AttributionStageInput {
  segments: readonly RecognisedSegment[];
  turns: readonly SpeakerTurn[];
}

export interface Attributed {
  segments: RecognisedSegment[];
  turns: SpeakerTurn[];
}

export function run(input: AttributionStageInput, _context: StageContext): Attributed {
  const attributed = attributeSpeakers(input.segments, input.turns);
  const labels = speakerLabels(attributed, input.turns);
  const label = (id: string) => labels.get(id) ?? id;
  return {
    segments: attributed.map((s) => ({ ...s, speaker: label(s.speaker) })),
    turns: input.turns.map((t) => ({ ...t, speaker: label(t.speaker) })),
  };
}
