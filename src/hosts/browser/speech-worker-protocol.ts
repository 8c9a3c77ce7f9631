/**
 * Messages between the engine's worker and the worker that runs voice activity detection
 * (Silero VAD) in a thread of its own.
 */

export type ToSpeechWorker =
  | { id: number; type: 'load'; data: { modelHost: string; modelId?: string } }
  | {
      id: number;
      type: 'score';
      /** `samples` begins at window `offset` of the channel; it is transferred. */
      data: {
        modelHost: string;
        modelId?: string;
        samples: Float32Array;
        offset: number;
        from: number;
        to: number;
      };
    }
  | { id: number; type: 'cancel'; data: null };

export type FromSpeechWorker =
  | { id: number; type: 'loaded'; data: { streamWindows: number; warmupWindows: number } }
  | { id: number; type: 'progress'; data: { fraction: number | null; detail: string } }
  | { id: number; type: 'scored'; data: Float32Array }
  /** `code` is the service error code when the failure is one (a model that cannot load). */
  | { id: number; type: 'failed'; data: { name: string; message: string; code?: string } };
