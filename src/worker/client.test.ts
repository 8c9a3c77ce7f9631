import { describe, expect, it } from 'vitest';
import { ServiceError } from '../core/contract/errors';
import { TranscriptionClient } from './client';
import type { EngineSettings, FromWorker, ToWorker } from './protocol';
import { isRuntimeFault } from './runtime-fault';
import type { LifeLocks } from './worker-watch';

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

/**
 * Life locks and the start bound's timer as a test controls them: `take(name)` is a worker
 * taking its lock, `end(name)` the worker holding it going away, `passBound()` the bound passing.
 */
function fakeLocks() {
  const held = new Set<string>();
  const waiting = new Map<string, () => void>();
  const timers: (() => void)[] = [];
  const locks: LifeLocks = {
    acquire: (name, signal) =>
      new Promise<void>((resolve, reject) => {
        waiting.set(name, resolve);
        signal.addEventListener('abort', () => reject(new DOMException('', 'AbortError')));
      }),
    isHeld: (name) => Promise.resolve(held.has(name)),
    setTimer: (run) => {
      timers.push(run);
      return () => timers.splice(timers.indexOf(run), 1);
    },
  };
  return {
    locks,
    waiting,
    take: (name: string) => held.add(name),
    end: (name: string) => {
      held.delete(name);
      waiting.get(name)?.();
    },
    passBound: () => timers.splice(0).forEach((run) => run()),
  };
}

function clientWithWorkers(locks: LifeLocks | null = null) {
  const workers: FakeWorker[] = [];
  const names: string[] = [];
  const client = new TranscriptionClient((name) => {
    const worker = new FakeWorker();
    workers.push(worker);
    names.push(name);
    return worker as unknown as Worker;
  }, locks);
  return { client, workers, names };
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

describe('the requests a worker reports', () => {
  it('go to the transcription that shows a note, with those of calls before it that show none', async () => {
    const { client, workers } = clientWithWorkers();
    const batchItem = client.transcribe('audio', new FormData());
    const first = (workers[0]!.sent.at(-1) as Extract<ToWorker, { type: 'transcribe' }>).id;
    workers[0]!.reply({ id: first, type: 'network', data: [{ url: 'http://m/a.onnx' }] });
    workers[0]!.reply({ id: first, type: 'result', data: { prediction: 'one' } as never });
    await batchItem;

    const heard: string[][] = [];
    const shown = client.transcribe('audio', new FormData(), {
      onNetwork: (records) => heard.push(records.map((r) => r.url)),
    });
    const second = (workers[0]!.sent.at(-1) as Extract<ToWorker, { type: 'transcribe' }>).id;
    workers[0]!.reply({ id: second, type: 'network', data: [{ url: 'http://m/b.onnx' }] });
    workers[0]!.reply({ id: second, type: 'result', data: { prediction: 'two' } as never });
    await shown;
    expect(heard).toEqual([['http://m/a.onnx', 'http://m/b.onnx']]);
  });
});

describe('the speakers a worker reports', () => {
  it('reach the transcription they belong to, embeddings and all, before its result', async () => {
    const { client, workers } = clientWithWorkers();
    const heard: string[] = [];
    const call = client.transcribe('audio', new FormData(), {
      onSpeakers: (speakers) =>
        heard.push(...speakers.map((s) => `${s.speaker} ${s.seconds} ${s.embedding.join(',')}`)),
    });
    const id = (workers[0]!.sent.at(-1) as Extract<ToWorker, { type: 'transcribe' }>).id;
    const embedding = new Float32Array([0.6, 0.8]);
    workers[0]!.reply({
      id,
      type: 'speakers',
      data: [{ speaker: 'speaker_0', embedding, seconds: 4, model: 'm' }],
    });
    // Another call's speakers are not this call's.
    workers[0]!.reply({
      id: id + 1,
      type: 'speakers',
      data: [{ speaker: 'speaker_9', embedding, seconds: 1, model: 'm' }],
    });
    expect(heard).toEqual(['speaker_0 4 0.6000000238418579,0.800000011920929']);
    workers[0]!.reply({ id, type: 'result', data: { prediction: 'one' } as never });
    await call;
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
    const fake = fakeLocks();
    const { client, workers, names } = clientWithWorkers(fake.locks);
    const call = client.transcribe('audio', new FormData());
    const name = names[0]!;
    // Nothing is asked of the lock until the worker says it holds it.
    expect(fake.waiting.size).toBe(0);
    fake.take(name);
    workers[0]!.reply({ id: 0, type: 'watching', data: name });
    expect(fake.waiting.has(name)).toBe(true);
    fake.end(name);
    const error = await failure(call);
    expect(error.message).toMatch(/out of memory or was ended by the browser/);
    expect(workers[0]!.terminated).toBe(true);
    // A second worker gets a lock of its own.
    void client.transcribe('audio', new FormData()).catch(() => undefined);
    expect(names[1]).not.toBe(name);
  });

  it('counts a worker dead that never takes its lock within the start bound', async () => {
    const fake = fakeLocks();
    const { client, workers } = clientWithWorkers(fake.locks);
    const call = client.transcribe('audio', new FormData());
    fake.passBound();
    const error = await failure(call);
    expect(error.code).toBe('internal_error');
    expect(error.message).toMatch(/did not start within 20 s/);
    expect(error.message).toMatch(/restarted/);
    expect(workers[0]!.terminated).toBe(true);
    const next = client.transcribe('audio', new FormData());
    const { id } = lastTranscribe(workers[1]!);
    workers[1]!.reply({ id, type: 'result', data: { prediction: 'ok' } as never });
    await expect(next).resolves.toMatchObject({ prediction: 'ok' });
  });

  it('watches a worker that holds its lock when the bound passes before its word', async () => {
    const fake = fakeLocks();
    const { client, workers, names } = clientWithWorkers(fake.locks);
    const call = client.transcribe('audio', new FormData());
    fake.take(names[0]!);
    fake.passBound();
    await Promise.resolve();
    await Promise.resolve();
    expect(fake.waiting.has(names[0]!)).toBe(true);
    const { id } = lastTranscribe(workers[0]!);
    workers[0]!.reply({ id, type: 'result', data: { prediction: 'alive' } as never });
    await expect(call).resolves.toMatchObject({ prediction: 'alive' });
    expect(workers[0]!.terminated).toBe(false);
  });

  it('notices a worker that dies between requests, and the next request gets a new one', async () => {
    const fake = fakeLocks();
    const { client, workers, names } = clientWithWorkers(fake.locks);
    client.prepare(settings(false));
    fake.take(names[0]!);
    workers[0]!.reply({ id: 0, type: 'watching', data: names[0]! });
    fake.end(names[0]!);
    await Promise.resolve();
    expect(workers[0]!.terminated).toBe(true);
    void client.transcribe('audio', new FormData()).catch(() => undefined);
    expect(workers).toHaveLength(2);
    expect(workers[1]!.sent.map((m) => m.type)).toEqual(['configure', 'transcribe']);
  });

  it('ignores the lock of a worker it ended itself', async () => {
    const fake = fakeLocks();
    const { client, workers, names } = clientWithWorkers(fake.locks);
    const controller = new AbortController();
    const first = client.transcribe('audio', new FormData(), { signal: controller.signal });
    const name = names[0]!;
    fake.take(name);
    workers[0]!.reply({ id: 0, type: 'watching', data: name });
    controller.abort();
    await expect(first).rejects.toMatchObject({ name: 'AbortError' });
    const second = client.transcribe('audio', new FormData());
    fake.end(name);
    fake.passBound();
    await Promise.resolve();
    const { id } = lastTranscribe(workers[1]!);
    workers[1]!.reply({ id, type: 'result', data: { prediction: 'second' } as never });
    await expect(second).resolves.toMatchObject({ prediction: 'second' });
  });

  it('names the next worker to close at its start when a test build orders it', () => {
    const { client, names } = clientWithWorkers();
    client.crashForTest({ kind: 'exit', at: 'start', worker: 'transcription' });
    client.prepare(settings(false));
    expect(names[0]).toMatch(/#exit-at-start$/);
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
