import type { SpeakerRecognition } from '../../core/voices/recognise';
import type { SpeakerVoice } from '../../core/voices/voice';

/**
 * The speakers of a result with their embeddings, and which stored voices they were found to
 * be when the result arrived: kept beside the result (its history entry, the session) and never
 * in it, so that no download, document or webhook carries them.
 */
export interface ResultVoices {
  speakers: SpeakerVoice[];
  recognitions: SpeakerRecognition[];
}
