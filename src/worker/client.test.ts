import { describe, expect, it } from 'vitest';
import { ServiceError } from '../core/contract/errors';
import { TranscriptionClient } from './client';
import type { EngineSettings, FromWorker, ToWorker } from './protocol';
import { isRuntimeFault } from './runtime-fault';

/** A stand-in for the worker: records what it is sent and whether it was ended. */
class FakeWorker extends EventTarget {
  readonly sent: ToWorker[] = [];
  terminated = false;
  postMessage(message: ToWorker): void {
    this.sent.push(message);
  }
  terminate(): void {
    this.terminated = true;
  }
  reply(message: FromWorker): void {
    this.dispatchEvent(new MessageEvent('message', { data: message }));
  }
}

const settings = (useGpu: boolean): EngineSettings => ({
  modelHost: '/hub/',
  whisperModel: 'murmur-test/whisper-synth',
  useGpu,
});

/** Life locks as a test controls them: `end(name)` is the worker holding it going away. */
function fakeLocks() {
  const waiting = new Map<string, () => void>();
  const watch = (name: string, signal: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      waiting.set(name, resolve);
      signal.addEventListener('abort', () => reject(new DOMException('', 'AbortError')));
    });
  return { watch, waiting, end: (name: string) => waiting.get(name)?.() };
}

function clientWithWorkers(watch: ReturnType<typeof fakeLocks>['watch'] | null = null) {
  const workers: FakeWorker[] = [];
  const client = new TranscriptionClient(() => {
    const worker = new FakeWorker();
    workers.push(worker);
    return worker as unknown as Worker;
  }, watch);
  return { client, workers };
}

async function failure(call: Promise<unknown>): Promise<ServiceError> {
  const thrown = await call.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(thrown instanceof ServiceError)) throw new Error(`expected a ServiceError: ${thrown}`);
  return thrown;
}

const lastTranscribe = (worker: FakeWorker) =>
  worker.sent.filter((m) => m.type === 'transcribe').at(-1)!;

describe('TranscriptionClient', () => {
  it('starts one worker ahead of a request and hands it the settings', () => {
    const { client, workers } = clientWithWorkers();
    client.prepare(settings(false));
    client.prepare(settings(false));
    expect(workers).toHaveLength(1);
    expect(workers[0]!.sent.map((m) => m.type)).toEqual(['configure', 'configure']);
  });

  it('ends an idle worker started without the GPU when the GPU is turned on', () => {
    const { client, workers } = clientWithWorkers();
    client.prepare(settings(false));
    client.configure(settings(true));
    expect(workers[0]!.terminated).toBe(true);
    client.prepare(settings(true));
    expect(workers).toHaveLength(2);
    expect(workers[1]!.sent[0]).toEqual({ id: 0, type: 'configure', data: settings(true) });
  });

  it('keeps its worker when the GPU is turned off, or while a request runs', () => {
    const { client, workers } = clientWithWorkers();
    client.prepare(settings(true));
    client.configure(settings(false));
    expect(workers[0]!.terminated).toBe(false);
    void client.transcribe('audio', new FormData()).catch(() => undefined);
    client.configure(settings(true));
    expect(workers[0]!.terminated).toBe(false);
    expect(workers).toHaveLength(1);
  });
});

describe('a worker that dies', () => {
  it('fails the call on a trap nothing caught, and the next request gets a new worker', async () => {
    const { client, workers } = clientWithWorkers();
    const call = client.transcribe('audio', new FormData());
    const event = new Event('error', { cancelable: true });
    Object.assign(event, { message: 'Uncaught RuntimeError: unreachable' });
    workers[0]!.dispatchEvent(event);
    const error = await failure(call);
    expect(error.code).toBe('internal_error');
    expect(error.message).toMatch(/stopped \(Uncaught RuntimeError: unreachable\)/);
    expect(error.message).toMatch(/restarted/);
    expect(workers[0]!.terminated).toBe(true);

    const next = client.transcribe('audio', new FormData());
    expect(workers).toHaveLength(2);
    const { id } = lastTranscribe(workers[1]!);
    workers[1]!.reply({ id, type: 'result', data: { prediction: 'ok' } as never });
    await expect(next).resolves.toMatchObject({ prediction: 'ok' });
  });

  it('fails the call when the worker reports its runtime broken, and replaces it', async () => {
    const { client, workers } = clientWithWorkers();
    client.prepare(settings(false));
    const call = client.transcribe('audio', new FormData());
    workers[0]!.reply({
      id: 0,
      type: 'crashed',
      data: { code: null, name: 'RuntimeError', message: 'Aborted(OOM)', problems: [] },
    });
    expect((await failure(call)).message).toMatch(/Aborted\(OOM\)/);
    expect(workers[0]!.terminated).toBe(true);
    void client.transcribe('audio', new FormData()).catch(() => undefined);
    // The new worker is told the settings again before the request.
    expect(workers[1]!.sent.map((m) => m.type)).toEqual(['configure', 'transcribe']);
  });

  it('notices a worker gone without a word through its life lock', async () => {
    const locks = fakeLocks();
    const { client, workers } = clientWithWorkers(locks.watch);
    const call = client.transcribe('audio', new FormData());
    const watch = workers[0]!.sent.find((m) => m.type === 'watch');
    expect(watch?.type).toBe('watch');
    const name = watch!.data as string;
    // Nothing is watched until the worker says it holds the lock.
    expect(locks.waiting.size).toBe(0);
    workers[0]!.reply({ id: 0, type: 'watching', data: name });
    expect(locks.waiting.has(name)).toBe(true);
    locks.end(name);
    const error = await failure(call);
    expect(error.message).toMatch(/out of memory or was ended by the browser/);
    expect(workers[0]!.terminated).toBe(true);
    // A second worker gets a lock of its own.
    void client.transcribe('audio', new FormData()).catch(() => undefined);
    const second = workers[1]!.sent.find((m) => m.type === 'watch')!.data;
    expect(second).not.toBe(name);
  });

  it('ignores the lock of a worker it ended itself', async () => {
    const locks = fakeLocks();
    const { client, workers } = clientWithWorkers(locks.watch);
    const controller = new AbortController();
    const first = client.transcribe('audio', new FormData(), { signal: controller.signal });
    const name = workers[0]!.sent.find((m) => m.type === 'watch')!.data as string;
    workers[0]!.reply({ id: 0, type: 'watching', data: name });
    controller.abort();
    await expect(first).rejects.toMatchObject({ name: 'AbortError' });
    const second = client.transcribe('audio', new FormData());
    locks.end(name);
    await Promise.resolve();
    const { id } = lastTranscribe(workers[1]!);
    workers[1]!.reply({ id, type: 'result', data: { prediction: 'second' } as never });
    await expect(second).resolves.toMatchObject({ prediction: 'second' });
  });

  it('tells runtime faults from ordinary failures', () => {
    const trap = (() => {
      try {
        const bytes = new Uint8Array([
          0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 7, 5, 1, 1, 102, 0, 0, 10, 5,
          1, 3, 0, 0, 11,
        ]);
        (new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports.f as () => void)();
      } catch (thrown) {
        return thrown;
      }
      return null;
    })();
    expect(trap).toBeInstanceOf(WebAssembly.RuntimeError);
    expect(isRuntimeFault(trap)).toBe(true);
    expect(isRuntimeFault(new Error('Aborted(OOM). Build with -sASSERTIONS for more info.'))).toBe(
      true,
    );
    expect(isRuntimeFault(new RangeError('Array buffer allocation failed'))).toBe(true);
    expect(isRuntimeFault(new Error('The file holds no audio stream.'))).toBe(false);
    expect(isRuntimeFault(new ServiceError('bad_request', 'x'))).toBe(false);
  });
});
