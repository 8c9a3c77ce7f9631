/**
 * The worker's side of `worker-watch.ts`: the first thing a worker script does. It takes the
 * life lock its creator named (the worker's `name`) before anything else loads, so the window in
 * which it could die unseen is as short as a script can make it, then loads the worker's real
 * code, which arrives as a separate module. Messages that come before that code has loaded are
 * kept and handed to it in order.
 */

/** Test builds: a worker whose name ends so closes before it takes its lock. */
export const EXIT_AT_START = '#exit-at-start';

/** The worker global, as far as starting needs it. */
interface StartingScope {
  name: string;
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  close(): void;
}

export type MessageHandler = (event: MessageEvent) => void;

/** The life lock's name in a worker's name (a test mark may follow it). */
export function lockNameOf(workerName: string): string {
  const mark = workerName.indexOf('#');
  return mark < 0 ? workerName : workerName.slice(0, mark);
}

/**
 * Takes the life lock, then loads the worker's code (`load` resolves to its message handler).
 * `testHooks`: honour `EXIT_AT_START` (test builds only).
 */
export function startWorker(load: () => Promise<MessageHandler>, testHooks = false): void {
  const scope = self as unknown as StartingScope;
  if (testHooks && scope.name.endsWith(EXIT_AT_START)) {
    scope.close();
    return;
  }
  const lockName = lockNameOf(scope.name);
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (lockName && locks) {
    void locks.request(lockName, () => {
      scope.postMessage({ id: 0, type: 'watching', data: lockName });
      // Never settles: the lock is released only when the worker ends.
      return new Promise<void>(() => undefined);
    });
  }
  const early: MessageEvent[] = [];
  let handler: MessageHandler | null = null;
  scope.addEventListener('message', (event) => (handler ? handler(event) : early.push(event)));
  load().then(
    (loaded) => {
      handler = loaded;
      for (const event of early.splice(0)) loaded(event);
    },
    (thrown: unknown) => {
      // Thrown where nothing catches it, so that the creator's `error` event reports it.
      setTimeout(() => {
        throw thrown instanceof Error ? thrown : new Error(String(thrown));
      });
    },
  );
}
