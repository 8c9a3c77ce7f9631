/**
 * Knowing that a worker has died. A worker that throws where nothing catches it fires `error` on
 * its `Worker` object, but one that the browser ends (out of memory) or that closes fires
 * nothing, and a call waiting on it would wait for ever. So each worker holds a Web Lock for its
 * whole life: the page asks for the same lock, and is granted it only once the worker is gone.
 */

/** Resolves when the lock's holder has gone; rejects with `AbortError` when `signal` aborts. */
export type ExitWatch = (lockName: string, signal: AbortSignal) => Promise<void>;

function locks(): LockManager | null {
  return typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null;
}

/** The page's side, or null where Web Locks are missing (then only `error` events are seen). */
export function lockExitWatch(): ExitWatch | null {
  const manager = locks();
  if (!manager) return null;
  return (lockName, signal) => manager.request(lockName, { signal }, () => undefined);
}

/** The worker's side: takes the lock for good; resolves once it is held. */
export function holdLifeLock(lockName: string): Promise<void> {
  const manager = locks();
  if (!manager) return Promise.reject(new Error('Web Locks are not available.'));
  return new Promise((held) => {
    void manager.request(lockName, () => {
      held();
      // Never settles: the lock is released only when the worker ends.
      return new Promise<void>(() => undefined);
    });
  });
}
