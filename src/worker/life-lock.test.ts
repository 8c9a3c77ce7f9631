import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXIT_AT_START, lockNameOf, startWorker, type MessageHandler } from './life-lock';

/** A worker global as `startWorker` sees it, with Web Locks that grant at once. */
function fakeScope(name: string) {
  const listeners: MessageHandler[] = [];
  const scope = {
    name,
    posted: [] as unknown[],
    closed: false,
    requested: [] as string[],
    postMessage(message: unknown) {
      this.posted.push(message);
    },
    addEventListener(_type: 'message', listener: MessageHandler) {
      listeners.push(listener);
    },
    close() {
      this.closed = true;
    },
    send(data: unknown) {
      for (const listener of listeners) listener(new MessageEvent('message', { data }));
    },
  };
  const locks = {
    request: (lock: string, grant: () => Promise<void>) => {
      scope.requested.push(lock);
      void grant();
      return new Promise<void>(() => undefined);
    },
  };
  vi.stubGlobal('self', scope);
  vi.stubGlobal('navigator', { locks });
  return scope;
}

afterEach(() => vi.unstubAllGlobals());

describe('startWorker', () => {
  it('takes the life lock its name gives before the code loads, and says so', () => {
    const scope = fakeScope('murmur-x-worker-1-abc');
    startWorker(() => new Promise<MessageHandler>(() => undefined));
    expect(scope.requested).toEqual(['murmur-x-worker-1-abc']);
    expect(scope.posted).toEqual([{ id: 0, type: 'watching', data: 'murmur-x-worker-1-abc' }]);
  });

  it('hands the messages that came while the code loaded to it, in order, then the rest', async () => {
    const scope = fakeScope('w');
    const seen: unknown[] = [];
    let loaded: (handler: MessageHandler) => void = () => undefined;
    startWorker(() => new Promise<MessageHandler>((resolve) => (loaded = resolve)));
    scope.send('first');
    scope.send('second');
    loaded((event) => seen.push(event.data));
    await Promise.resolve();
    await Promise.resolve();
    scope.send('third');
    expect(seen).toEqual(['first', 'second', 'third']);
  });

  it('closes before taking its lock when a test build names it so', () => {
    const scope = fakeScope(`w${EXIT_AT_START}`);
    startWorker(() => Promise.resolve(() => undefined), true);
    expect(scope.closed).toBe(true);
    expect(scope.requested).toEqual([]);
  });

  it('ignores the test mark in other builds', () => {
    const scope = fakeScope(`w${EXIT_AT_START}`);
    startWorker(() => new Promise<MessageHandler>(() => undefined), false);
    expect(scope.closed).toBe(false);
    expect(scope.requested).toEqual(['w']);
    expect(lockNameOf(`w${EXIT_AT_START}`)).toBe('w');
  });
});
