import { describe, expect, it } from 'vitest';
import { TranscriptionClient } from './client';
import type { EngineSettings, ToWorker } from './protocol';

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
}

const settings = (useGpu: boolean): EngineSettings => ({
  modelHost: '/hub/',
  whisperModel: 'murmur-test/whisper-synth',
  useGpu,
});

function clientWithWorkers() {
  const workers: FakeWorker[] = [];
  const client = new TranscriptionClient(() => {
    const worker = new FakeWorker();
    workers.push(worker);
    return worker as unknown as Worker;
  });
  return { client, workers };
}

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
