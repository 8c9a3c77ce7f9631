import type { Envelope, ErrorReply } from '../../src/worker/envelope';
import type { SpeakerModelTimes } from '../../tools/testing/timed-speaker-models';

/** What the diarization harness page asks its worker to run. */
export interface DiarizationRun {
  /** Model host (absolute URL of the hub layout) and the speaker models' ids. */
  modelHost: string;
  segmentationModel: string;
  embeddingModel: string;
  /** Where to fetch 16 kHz mono float32 samples (raw), and the stretches of speech (seconds). */
  samplesUrl: string;
  speech: { start: number; end: number }[];
  numSpeakers: number | null;
  /** Stretches the embedding model is given at once (the stage's default when left out). */
  embeddingBatch?: number;
}

export interface DiarizationResult {
  turns: { speaker: string; start: number; end: number }[];
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
