import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as transformers from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startUnreliableHost,
  type UnreliableHost,
} from '../../../tools/testing/unreliable-model-host';
import { main } from './cli';
import { REPO, TEST_WHISPER_ID } from '../../../tools/testing/ffmpeg-fixtures';
import { downloadModelFile } from '../../engine/models/model-download';
import { nodePartStore } from './model-parts';
import { nodeDownloadPorts } from './transformers-setup';

const jfk = fileURLToPath(new URL('../../../../shared/media/speech/jfk.wav', import.meta.url));
const MODELS = join(REPO, '.models');
const ENCODER = 'onnx/encoder_model.onnx';

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  return { code, stdout, stderr };
}

/** A transcription of the test speech with models from `host`. */
const transcribe = (host: UnreliableHost) =>
  run('transcribe', jfk, '--models', host.url, '--model', TEST_WHISPER_ID);

/**
 * Where whole models are kept, for these tests alone: named through the environment, which the
 * engine thread that downloads them reads too.
 */
let cache = '';
const cacheDir = transformers.env.cacheDir;
const named = process.env.MURMUR_MODEL_CACHE;
beforeAll(() => {
  cache = mkdtempSync(join(tmpdir(), 'murmur-model-cache-'));
  process.env.MURMUR_MODEL_CACHE = cache;
  transformers.env.cacheDir = cache;
});
afterAll(() => {
  if (named === undefined) delete process.env.MURMUR_MODEL_CACHE;
  else process.env.MURMUR_MODEL_CACHE = named;
  transformers.env.cacheDir = cacheDir;
  rmSync(cache, { recursive: true, force: true });
});

const cached = (file: string) => existsSync(join(cache, TEST_WHISPER_ID, file));

describe('murmur: model downloads that survive a bad network', () => {
  it('a host that cuts each file’s first connection half-way: resumed with Range, transcribed', async () => {
    const host = await startUnreliableHost(MODELS, { firstConnection: 'cut' });
    try {
      const { code, stdout, stderr } = await transcribe(host);
      expect(stderr).not.toMatch(/could not be loaded/);
      expect(code).toBe(0);
      expect(JSON.parse(stdout).prediction.length).toBeGreaterThan(0);
      // transformers.js asks for the first byte alone to learn the size: not a download.
      const encoder = host.requestsFor(ENCODER).filter((r) => r.range !== 'bytes=0-0');
      expect(encoder[0]).toMatchObject({ range: null, status: 200 });
      const resumed = encoder[1];
      expect(resumed?.status).toBe(206);
      expect(Number(/^bytes=(\d+)-$/.exec(resumed!.range!)![1])).toBeGreaterThan(0);
      expect(stderr).toMatch(
        /^murmur: Downloading murmur-test\/whisper-synth: \d+\.\d of \d+\.\d MB( · \d+\.\d MB\/s)?/m,
      );
      expect(cached(ENCODER)).toBe(true);
    } finally {
      await host.close();
    }
  }, 120_000);

  it('a host without Range support that cuts the first connection is read again whole', async () => {
    const host = await startUnreliableHost(MODELS, { firstConnection: 'cut', ranges: false });
    const store = nodePartStore();
    try {
      rmSync(join(cache, TEST_WHISPER_ID), { recursive: true, force: true });
      const { code } = await transcribe(host);
      expect(code).toBe(0);
      const encoder = host.requestsFor(ENCODER).filter((r) => r.range !== 'bytes=0-0');
      // Cut, then asked for the rest, and answered with the whole file again.
      expect(encoder.length).toBe(2);
      expect(encoder[1]!.range).toMatch(/^bytes=[1-9]\d*-$/);
      expect(encoder.map((r) => r.status)).toEqual([200, 200]);
      expect(cached(ENCODER)).toBe(true);
      expect(await store.read(`${host.url}${TEST_WHISPER_ID}/resolve/main/${ENCODER}`)).toBeNull();
    } finally {
      await host.close();
    }
  }, 120_000);

  for (const [damage, what] of [
    ['short', 'arrived with 15,360,923 bytes where the host announced 15,361,923'],
    ['sha256', ''],
  ] as const) {
    it(`a file served ${damage === 'short' ? 'short of its size' : 'with another sha256'} is refused with a sentence and not kept`, async () => {
      const host = await startUnreliableHost(MODELS, { damaged: { [ENCODER]: damage } });
      try {
        rmSync(join(cache, TEST_WHISPER_ID), { recursive: true, force: true });
        const first = await transcribe(host);
        expect(first.code).toBe(1);
        const line = first.stderr.split('\n').find((l) => l.includes('could not be loaded'));
        const real = createHash('sha256')
          .update(readFileSync(join(MODELS, TEST_WHISPER_ID, ENCODER)))
          .digest('hex');
        const announced = createHash('sha256').update(real).digest('hex');
        const wrong =
          damage === 'short'
            ? what
            : `arrived with a sha256 checksum (${real.slice(0, 12)}…) other than the one the host announced (${announced.slice(0, 12)}…)`;
        expect(line).toBe(
          `murmur: The recognition model "${TEST_WHISPER_ID}" could not be loaded from ${host.url}: its file ${ENCODER} ${wrong}, so it was damaged on the way and was not kept. Check the model (--model ID) and the model host (--models DIR|URL).`,
        );
        expect(cached(ENCODER)).toBe(false);
        const url = `${host.url}${TEST_WHISPER_ID}/resolve/main/${ENCODER}`;
        expect(await nodePartStore().read(url)).toBeNull();
        // A second try finds nothing kept: it asks the host for the whole file again.
        const before = host.requestsFor(ENCODER).length;
        const second = await transcribe(host);
        expect(second.code).toBe(1);
        const again = host.requestsFor(ENCODER).slice(before);
        expect(again.some((r) => r.range === null)).toBe(true);
      } finally {
        await host.close();
      }
    }, 120_000);
  }
});

describe('murmur: model files a host damages without a sign', () => {
  it('a file cut short under a short Content-Length is downloaded again once, never kept, and a good host then works', async () => {
    const bad = await startUnreliableHost(MODELS, { damaged: { [ENCODER]: 'short-length' } });
    try {
      rmSync(join(cache, TEST_WHISPER_ID), { recursive: true, force: true });
      const first = await transcribe(bad);
      expect(first.code).toBe(1);
      const line = first.stderr.split('\n').find((l) => l.includes('could not be loaded'));
      expect(line).toBe(
        `murmur: The recognition model "${TEST_WHISPER_ID}" could not be loaded from ${bad.url}: its file ${ENCODER} could not be read: it arrived damaged (shorter than the model needs). Check the model (--model ID) and the model host (--models DIR|URL).`,
      );
      // Fetched whole twice (the second time after the first copy was dropped), kept never.
      expect(bad.requestsFor(ENCODER).filter((r) => r.range === null)).toHaveLength(2);
      expect(cached(ENCODER)).toBe(false);
    } finally {
      await bad.close();
    }
    const good = await startUnreliableHost(MODELS);
    try {
      const second = await transcribe(good);
      expect(second.code).toBe(0);
      expect(cached(ENCODER)).toBe(true);
    } finally {
      await good.close();
      rmSync(join(cache, TEST_WHISPER_ID), { recursive: true, force: true });
    }
  }, 120_000);

  it('a host that never answers ends the run with a sentence within the stated time', async () => {
    const silent = await startUnreliableHost(MODELS, { silent: true });
    const named = process.env.MURMUR_MODEL_ANSWER_SECONDS;
    process.env.MURMUR_MODEL_ANSWER_SECONDS = '2';
    try {
      const started = performance.now();
      const run = await transcribe(silent);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(
        /could not be loaded from http:\/\/127\.0\.0\.1:\d+\/: the host did not answer within 2 s\./,
      );
      // Stopped by the wait it states, not by the test's own limit.
      expect(performance.now() - started).toBeLessThan(60_000);
    } finally {
      if (named === undefined) delete process.env.MURMUR_MODEL_ANSWER_SECONDS;
      else process.env.MURMUR_MODEL_ANSWER_SECONDS = named;
      await silent.close();
    }
  }, 120_000);
});

describe('the part of a model file kept on disk', () => {
  it('a download stopped half-way (the process ended) goes on from the kept part next time', async () => {
    const host = await startUnreliableHost(MODELS, { firstConnection: 'stall' });
    const folder = mkdtempSync(join(tmpdir(), 'murmur-parts-'));
    const ports = nodeDownloadPorts(folder);
    const url = `${host.url}${TEST_WHISPER_ID}/resolve/main/${ENCODER}`;
    try {
      const stop = new AbortController();
      const first = await downloadModelFile(url, ports, { signal: stop.signal });
      const reading = new Response(first.body).arrayBuffer();
      reading.catch(() => undefined);
      let kept = 0;
      while (kept === 0) {
        await new Promise((done) => setTimeout(done, 50));
        kept = (await ports.parts!.read(url))?.bytes.length ?? 0;
      }
      stop.abort();
      await expect(reading).rejects.toThrow();
      kept = (await ports.parts!.read(url))!.bytes.length;
      // The kept part is not a model: the folder models load from has nothing of it.
      expect(cached(ENCODER)).toBe(false);

      const second = await downloadModelFile(url, ports);
      const bytes = new Uint8Array(await second.arrayBuffer());
      const original = readFileSync(join(MODELS, TEST_WHISPER_ID, ENCODER));
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(
        createHash('sha256').update(original).digest('hex'),
      );
      const asked = host.requestsFor(ENCODER).map((r) => r.range);
      expect(asked).toEqual([null, `bytes=${kept}-`]);
      expect(kept).toBeGreaterThan(0);
      // Whole and checked, the part is dropped.
      expect(await ports.parts!.read(url)).toBeNull();
    } finally {
      await host.close();
      rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);

  it('a part whose bytes were not all written is read no further than its record says', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'murmur-parts-'));
    const store = nodePartStore(folder);
    const identity = { size: 10, sha256: null, validator: 'v' };
    try {
      await store.append('http://h/f', identity, 0, new Uint8Array([1, 2, 3]));
      await store.append('http://h/f', identity, 3, new Uint8Array([4, 5]));
      expect(await store.read('http://h/f')).toEqual({
        identity,
        bytes: new Uint8Array([1, 2, 3, 4, 5]),
      });
      // A write that does not continue the part is refused, the part left as it was.
      await expect(store.append('http://h/f', identity, 7, new Uint8Array([9]))).rejects.toThrow();
      expect((await store.read('http://h/f'))?.bytes.length).toBe(5);
      expect(await store.read('http://h/other')).toBeNull();
      await store.drop('http://h/f');
      expect(await store.read('http://h/f')).toBeNull();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
