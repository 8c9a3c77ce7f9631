/**
 * The speaker-attribution stage. In: the recognised segments, the speaker turns that
 * diarization found, the speakers' embeddings and any stored voices. Out: each segment with
 * its speaker (a segment that spans a change of speaker split where the speaker changes),
 * speakers labelled `speaker_0`, `speaker_1`, ... in order of first appearance, the turns under
 * the same labels, and each speaker a stored voice recognises named by it (a near miss is only
 * reported).
 */
import type { RecognisedSegment } from '../../../core/assemble/response';
import {
  attributeSpeakers,
  speakerLabels,
  type SpeakerTurn,
} from '../../../core/assemble/speakers';
import {
  recognisedNames,
  recogniseSpeakers,
  type SpeakerRecognition,
  type VoiceThresholds,
  voiceOfOtherLength,
} from '../../../core/voices/recognise';
import { ServiceError } from '../../../core/contract/errors';
import type { SpeakerVoice, Voice } from '../../../core/voices/voice';
import type { StageContext } from '../../stage-context';

export interface AttributionStageInput {
  segments: readonly RecognisedSegment[];
  turns: readonly SpeakerTurn[];
  /** The speakers diarization found, by the ids its turns carry. */
  speakers: readonly { id: string; embedding: Float32Array; seconds: number }[];
  embeddingModel: string;
  /** Stored voices to name speakers by (none: speakers keep their labels). */
  voices: readonly Voice[];
  voiceThresholds: VoiceThresholds;
}

export interface Attributed {
  segments: RecognisedSegment[];
  turns: SpeakerTurn[];
  /** Each labelled speaker with its embedding, under its label (`speaker_0`), not its name. */
  speakers: SpeakerVoice[];
  /** Speakers the voices recognised: `sure` ones carry the voice's name in segments and turns. */
  recognitions: SpeakerRecognition[];
}

export function run(input: AttributionStageInput, _context: StageContext): Attributed {
  const attributed = attributeSpeakers(input.segments, input.turns);
  const labels = speakerLabels(attributed, input.turns);
  const speakers = input.speakers
    .flatMap((s) => {
      const label = labels.get(s.id);
      return label === undefined
        ? []
        : [
            {
              speaker: label,
              embedding: s.embedding,
              seconds: s.seconds,
              model: input.embeddingModel,
            },
          ];
    })
    .sort((a, b) => a.speaker.localeCompare(b.speaker, 'en', { numeric: true }));
  const odd = voiceOfOtherLength(speakers, input.voices);
  if (odd !== null) throw new ServiceError('invalid_request', odd);
  const recognitions = recogniseSpeakers(speakers, input.voices, input.voiceThresholds);
  const names = recognisedNames(recognitions);
  const label = (id: string) => {
    const l = labels.get(id) ?? id;
    return names[l] ?? l;
  };
  return {
    segments: attributed.map((s) => ({ ...s, speaker: label(s.speaker) })),
    turns: input.turns.map((t) => ({ ...t, speaker: label(t.speaker) })),
    speakers,
    recognitions,
  };
}
