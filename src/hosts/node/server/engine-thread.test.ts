import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ServiceError, toServiceError } from '../../../core/contract/errors';
import type { Stage } from '../../../core/stages';
import { runPipeline } from '../../../engine/pipeline';
import {
  FixtureDir,
  mediaRequest,
  REPO,
  sharedMedia,
  TEST_VAD_MODEL_ID,
  TEST_WHISPER_ID,
  testEnginePorts,
} from '../../../../tools/testing/ffmpeg-fixtures';
import type { DiskFile } from '../media-file';
import { EngineThread } from './engine-thread';

const SETTINGS = {
  models: join(REPO, '.models'),
  model: TEST_WHISPER_ID,
  vadModel: TEST_VAD_MODEL_ID,
};
const MISBEHAVING = new URL(
  '../../../../tools/testing/server/misbehaving-engine-thread.mjs',
  import.meta.url,
);
const fixtures = new FixtureDir();
afterAll(() => fixtures.remove());

const named = (name: string) =>
  mediaRequest<DiskFile>({
    kind: 'file',
    file: { path: fixtures.path(name), name, size: 1, type: 'audio/wav' },
  });

/** Which thread answered, from the stand-in response of the misbehaving thread. */
const threadOf = (response: unknown) => (response as { threadId: number }).threadId;

describe('a slot engine on its own thread', () => {
  it('fails the run of a thread that ends with an internal error, and starts a fresh one', async () => {
    const engine = new EngineThread(SETTINGS, { entry: MISBEHAVING });
    try {
      const first = threadOf(await engine.runPipeline(named('a.wav'), {}));
      const failed = await engine.runPipeline(named('crash.wav'), {}).catch((e: unknown) => e);
      const error = toServiceError(failed);
      expect(error.code).toBe('internal_error');
      expect(error.status).toBe(500);
      expect(error.message).toBe('Internal failure: The transcription thread ended (exit 7).');
      const next = threadOf(await engine.runPipeline(named('a.wav'), {}));
      expect(next).not.toBe(first);
    } finally {
      await engine.close();
    }
  });

  it('ends a thread only once the models it is loading have loaded', async () => {
    // Ended while a model's session was being created, the runtime aborted the whole process.
    const told: string[] = [];
    const loads = new BroadcastChannel('murmur-test-loads');
    loads.onmessage = (event: MessageEvent<string>) => told.push(event.data);
    const engine = new EngineThread(SETTINGS, { entry: MISBEHAVING });
    try {
      const refused = await engine.runPipeline(named('loading.wav'), {}).catch((e: unknown) => e);
      expect(toServiceError(refused).message).toContain('Refused before any model was needed.');
      expect(told).toEqual([]);
      await engine.close();
      // The channel's message comes on a later turn than the thread's answer.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(told).toEqual(['loaded']);
    } finally {
      loads.close();
    }
  });

  it('tells the decoded audio of a run whose thread ended as let go, since it went with the thread', async () => {
    const engine = new EngineThread(SETTINGS, { entry: MISBEHAVING });
    try {
      const told: { bytes: number; peakBytes: number }[] = [];
      const failed = await engine
        .runPipeline(named('crash.wav'), { onDecodedAudio: (held) => told.push(held) })
        .catch((e: unknown) => e);
      expect(toServiceError(failed).code).toBe('internal_error');
      const mb = 1 << 20;
      expect(told).toEqual([
        { bytes: mb, peakBytes: mb },
        { bytes: 0, peakBytes: mb },
      ]);
    } finally {
      await engine.close();
    }
  });

  it('ends the thread of a cancelled run that does not stop, failing it with the reason', async () => {
    const engine = new EngineThread(SETTINGS, {
      entry: MISBEHAVING,
      cancelGraceMs: 100,
      retireLimitMs: 200,
    });
    try {
      const first = threadOf(await engine.runPipeline(named('a.wav'), {}));
      const controller = new AbortController();
      const hung = engine.runPipeline(named('hang.wav'), { signal: controller.signal });
      const reason = new ServiceError('engine_unavailable', 'The service stopped.');
      setTimeout(() => controller.abort(reason), 50);
      await expect(hung).rejects.toBe(reason);
      const next = threadOf(await engine.runPipeline(named('a.wav'), {}));
      expect(next).not.toBe(first);
    } finally {
      await engine.close();
    }
  });

  it('answers a cancel at once, and ends the thread only once its model call is over', async () => {
    // No grace: every cancel puts the thread aside while it decodes or runs a model. Ending a
    // thread in the middle of onnxruntime's call aborts the whole process (this test's too).
    const engine = new EngineThread(SETTINGS, { cancelGraceMs: 0 });
    const long = fixtures.ffmpeg('long.wav', [
      '-stream_loop',
      '10',
      '-i',
      sharedMedia('speech/jfk.wav'),
    ]);
    try {
      const request = mediaRequest({ kind: 'file', file: await fixtures.file(long) });
      for (const afterMs of [700, 1500, 2300, 3100, 3900, 4700]) {
        const controller = new AbortController();
        const reason = new ServiceError('engine_unavailable', 'The service stopped.');
        const timer = setTimeout(() => controller.abort(reason), afterMs);
        const run = engine.runPipeline(request, { signal: controller.signal });
        await expect(run).rejects.toBe(reason);
        clearTimeout(timer);
      }
      const short = mediaRequest({
        kind: 'file',
        file: await fixtures.file(sharedMedia('speech/jfk.wav')),
      });
      const response = await engine.runPipeline(short, {});
      expect(response.prediction_raw.transcription.length).toBeGreaterThan(0);
    } finally {
      await engine.close();
    }
  }, 240_000);

  it('answers as the pipeline does here, its events and its errors crossing back', async () => {
    const engine = new EngineThread(SETTINGS);
    try {
      await engine.start();
      const request = mediaRequest({
        kind: 'file',
        file: await fixtures.file(sharedMedia('speech/jfk.wav')),
      });
      const stages = new Set<Stage>();
      const segments: string[] = [];
      const response = await engine.runPipeline(request, {
        onProgress: (stage) => stages.add(stage),
        onSegment: (segment) => segments.push(segment.transcription),
      });
      const here = await runPipeline(request, testEnginePorts());
      expect(response.prediction).not.toBe('');
      expect(response.prediction).toBe(here.prediction);
      expect(response.prediction_raw.transcription).toEqual(here.prediction_raw.transcription);
      expect(segments.length).toBeGreaterThan(0);
      expect(segments).toEqual(here.prediction_raw.transcription.map((s) => s.transcription));
      expect(stages).toContain('decode');
      expect(stages).toContain('recognise');

      // A service error keeps its code (here, the limit of the host's duration).
      const tooLong = await engine
        .runPipeline(request, { limits: { maxSeconds: 5, maxChannels: 2 } })
        .catch((e: unknown) => e);
      expect(tooLong).toBeInstanceOf(ServiceError);
      expect((tooLong as ServiceError).code).toBe('payload_too_large');

      // A run cancelled between two steps stops there; the thread takes the next one.
      const controller = new AbortController();
      const cancelled = engine
        .runPipeline(request, {
          signal: controller.signal,
          onProgress: (stage) => (stage === 'recognise' ? controller.abort() : undefined),
        })
        .catch((e: unknown) => e);
      expect(toServiceError(await cancelled).code).toBe('cancelled');
      const again = await engine.runPipeline(request, {});
      expect(again.prediction).toBe(here.prediction);
    } finally {
      await engine.close();
    }
  }, 120_000);
});
