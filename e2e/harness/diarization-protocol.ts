import type { Envelope, ErrorReply } from '../../src/worker/envelope';
import type { SpeakerModelTimes } from '../../tools/testing/timed-speaker-models';

/** What the diarization harness page asks its worker to run. */
export interface DiarizationRun {
  /** Model host (absolute URL of the hub layout) and the speaker models' ids. */
  modelHost: string;
  segmentationModel: string;
  embeddingModel: string;
  /** Where to fetch the media file (a WAV of the conversation), transcribed as a request is. */
  mediaUrl: string;
  numSpeakers: number | null;
  /**
   * Stretches the embedding model is given at once, a setting given through the pipeline (the
   * stage's default when left out).
   */
  embeddingBatch?: number;
}

export interface DiarizationResult {
  turns: { speaker: string; start: number; end: number }[];
  /** The speakers the response names. */
  speakers: number;
  /** Seconds the stage took (models already loaded), and loading them. */
  seconds: number;
  loadSeconds: number;
  /** Of `seconds`, those spent in each model. */
  times: SpeakerModelTimes;
  crossOriginIsolated: boolean;
}

/** Messages between the page and its worker, in the app's worker envelope. */
export type DiarizationRequest = Envelope<'diarize', DiarizationRun>;
export type DiarizationReply = Envelope<'result', DiarizationResult> | ErrorReply;
