import type { LoadedSpeakerModels } from '../../src/engine/ports';

/** Seconds spent in each speaker model during a stage run, and how often each was called. */
export interface SpeakerModelTimes {
  segmentSeconds: number;
  segmentCalls: number;
  embedSeconds: number;
  embedCalls: number;
  /** Stretches embedded (a call may take several). */
  embeddings: number;
}

/**
 * Loaded speaker models that count the time spent in them, so that a benchmark can split the
 * stage's time between the segmentation model, the embedding model and the rest (clustering,
 * putting turns together). The calls are the same; nothing of the timing is in the engine.
 */
export function timedSpeakerModels(models: LoadedSpeakerModels): {
  models: LoadedSpeakerModels;
  times: SpeakerModelTimes;
} {
  const times: SpeakerModelTimes = {
    segmentSeconds: 0,
    segmentCalls: 0,
    embedSeconds: 0,
    embedCalls: 0,
    embeddings: 0,
  };
  return {
    times,
    models: {
      ...models,
      async segment(windows) {
        const t0 = performance.now();
        try {
          return await models.segment(windows);
        } finally {
          times.segmentSeconds += (performance.now() - t0) / 1000;
          times.segmentCalls++;
        }
      },
      async embed(stretches) {
        const t0 = performance.now();
        try {
          return await models.embed(stretches);
        } finally {
          times.embedSeconds += (performance.now() - t0) / 1000;
          times.embedCalls++;
          times.embeddings += Array.isArray(stretches) ? stretches.length : 1;
        }
      },
      dispose: () => models.dispose(),
    },
  };
}
