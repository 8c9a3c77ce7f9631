import type { LoadedWhisper } from '../../src/engine/ports';

/** Seconds and calls of each kind of recogniser call in a run. */
export type CallProfile = Record<string, { seconds: number; calls: number }>;

/** The recogniser's calls the benchmark times: features, encoder passes, decoder steps. */
const TIMED_CALLS = ['features', 'encode', 'step', 'encodeBatch', 'stepBatch'] as const;
export type TimedCall = (typeof TIMED_CALLS)[number];

/**
 * Times the recogniser's feature, encoder and decoder calls by wrapping them in place;
 * `onCall` hears each call's start and end (performance.now() milliseconds).
 */
export function profiledCalls(
  model: LoadedWhisper,
  onCall?: (name: TimedCall, phase: 'start' | 'end') => void,
): CallProfile {
  const profile: CallProfile = {};
  for (const name of TIMED_CALLS) {
    const call = model[name].bind(model) as (...args: unknown[]) => Promise<unknown>;
    const entry = (profile[name] = { seconds: 0, calls: 0 });
    (model as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      const t = performance.now();
      onCall?.(name, 'start');
      try {
        return await call(...args);
      } finally {
        entry.seconds += (performance.now() - t) / 1000;
        entry.calls++;
        onCall?.(name, 'end');
      }
    };
  }
  return profile;
}

/** Seconds in the model itself: encoder passes and decoder steps (features are our code). */
export function modelSeconds(profile: CallProfile): number {
  return (['encode', 'step', 'encodeBatch', 'stepBatch'] as const).reduce(
    (sum, name) => sum + (profile[name]?.seconds ?? 0),
    0,
  );
}
