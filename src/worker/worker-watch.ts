/**
 * Knowing that a worker has died, from the moment it is created. A worker that throws where
 * nothing catches it fires `error` on its `Worker` object, but one that the browser ends (out of
 * memory) or that closes fires nothing, and a call waiting on it would wait for ever. So each
 * worker holds a Web Lock for its whole life, named by its creator (the worker's `name`), taken
 * as the first thing its script does (`life-lock.ts`). Its creator asks for the same lock once
 * the worker says it holds it, and is granted it only once the worker is gone.
 *
 * A worker that dies before it takes its lock leaves nothing to be granted: its creator counts
 * it dead when the lock is not held within a bound (`START_BOUND_MS`) of its creation. Asking
 * for the lock sooner could be granted before the worker ever took it.
 */

import type { Envelope } from './envelope';

/** What a worker says once it holds its life lock (the lock's name). */
export type LifeReport = Envelope<'watching', string>;

/**
 * How long a new worker may take to hold its life lock before it counts as dead. The lock is
 * the first thing its script does, so this covers fetching and starting a small script: far
 * more than that takes even on a loaded machine, short enough that a request does not hang.
 */
export const START_BOUND_MS = 20_000;

/** How a worker was found to have died. */
export type Death = 'ended' | 'never-started';

/** The Web Locks and the timer a watch uses (tests give their own). */
export interface LifeLocks {
  /** Resolves once the lock is granted (its holder gone); rejects `AbortError` on `signal`. */
  acquire(name: string, signal: AbortSignal): Promise<void>;
  /** Whether some agent holds the lock now. */
  isHeld(name: string): Promise<boolean>;
  setTimer(run: () => void, ms: number): () => void;
}

/** The browser's Web Locks, or null where they are missing (then only `error` events count). */
export function browserLifeLocks(): LifeLocks | null {
  const manager = typeof navigator !== 'undefined' && navigator.locks ? navigator.locks : null;
  if (!manager) return null;
  return {
    acquire: (name, signal) => manager.request(name, { signal }, () => undefined),
    isHeld: async (name) => ((await manager.query()).held ?? []).some((l) => l.name === name),
    setTimer: (run, ms) => {
      const timer = setTimeout(run, ms);
      return () => clearTimeout(timer);
    },
  };
}

let serial = 0;

/** A lock name no other worker of this page has had. */
export function lifeLockName(kind: string): string {
  return `murmur-${kind}-worker-${++serial}-${Math.random().toString(36).slice(2)}`;
}

/**
 * One worker's life, watched from its creation. `onDeath` is called at most once, and never
 * after `stop()` (a worker its creator ends itself is not a death).
 */
export class LifeWatch {
  private readonly stopped = new AbortController();
  private cancelTimer: (() => void) | null;
  private watching = false;

  constructor(
    private readonly locks: LifeLocks,
    readonly lockName: string,
    private readonly onDeath: (death: Death) => void,
    startBoundMs = START_BOUND_MS,
  ) {
    this.cancelTimer = locks.setTimer(() => void this.checkStarted(), startBoundMs);
  }

  /** The worker said it holds its lock: from now on the lock's release is its death. */
  held(name: string): void {
    if (name !== this.lockName || this.watching || this.stopped.signal.aborted) return;
    this.watching = true;
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.locks.acquire(this.lockName, this.stopped.signal).then(
      () => this.die('ended'),
      () => undefined,
    );
  }

  stop(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
    this.stopped.abort();
  }

  /** The bound passed with no word: a worker that holds its lock is alive, its word delayed. */
  private async checkStarted(): Promise<void> {
    this.cancelTimer = null;
    if (this.watching || this.stopped.signal.aborted) return;
    const held = await this.locks.isHeld(this.lockName).catch(() => false);
    if (held) this.held(this.lockName);
    else this.die('never-started');
  }

  private die(death: Death): void {
    if (this.stopped.signal.aborted) return;
    this.stop();
    this.onDeath(death);
  }
}

/** The words a crash error gives for each way of dying. */
export function deathDetail(death: Death): string {
  return death === 'ended'
    ? 'it ran out of memory or was ended by the browser'
    : `it did not start within ${START_BOUND_MS / 1000} s; the browser may be out of memory`;
}
