/** Messages between the diarization harness page and its worker. */
export interface DiarizationRun {
  /** Model host (absolute URL of the hub layout) and the speaker models' ids. */
  modelHost: string;
  segmentationModel: string;
  embeddingModel: string;
  /** Where to fetch 16 kHz mono float32 samples (raw), and the stretches of speech (seconds). */
  samplesUrl: string;
  speech: { start: number; end: number }[];
  numSpeakers: number | null;
}

export type DiarizationReply =
  | {
      type: 'done';
      turns: { speaker: string; start: number; end: number }[];
      /** Seconds the stage took (models already loaded), and loading them. */
      seconds: number;
      loadSeconds: number;
      crossOriginIsolated: boolean;
    }
  | { type: 'error'; message: string };
