/**
 * Models that load beside the first stages (the translation model, the speaker models): their
 * download is reported as model loading while the media is decoded and recognised, and under
 * the stage that needs them once it has to wait for them (a large model may still be coming).
 */
import type { ProgressListener } from './ports';
import type { StageContext } from './stage-context';

export interface BackgroundLoad<T> {
  loaded: Promise<T>;
  /** Called by the stage that waits: from now on the download is reported under it. */
  onWaitForModel: () => void;
}

export function loadInBackground<T>(
  start: (onProgress: ProgressListener) => Promise<T>,
  models: StageContext,
  own: StageContext,
  waitingDetail: string,
): BackgroundLoad<T> {
  let waited = false;
  let last: [number | null, string] | null = null;
  const loaded = start((fraction, detail) => {
    last = [fraction, detail];
    (waited ? own : models).progress(fraction, detail);
  });
  // A failed load is reported when its stage awaits it, not as an unhandled rejection.
  loaded.catch(() => {});
  return {
    loaded,
    onWaitForModel: () => {
      waited = true;
      const [fraction, detail] = last ?? [null, waitingDetail];
      own.progress(fraction, detail);
    },
  };
}

/** The loaded model; `onWait` is called first when it is not loaded yet. */
export async function awaitModel<T>(loading: Promise<T>, onWait?: () => void): Promise<T> {
  let loaded = false;
  void loading.then(
    () => (loaded = true),
    () => undefined,
  );
  // A settled load has run its callbacks by the next turn of the microtask queue.
  await Promise.resolve();
  if (!loaded) onWait?.();
  return loading;
}
