import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../core/contract/endpoints';
import type { ErrorBody } from '../../../core/contract/errors';
import { FixtureDir, sharedMedia } from '../../../../tools/testing/ffmpeg-fixtures';
import {
  rawExchange,
  uploadHead,
  type RawAnswer,
} from '../../../../tools/testing/server/raw-socket';
import { startServe, type ServeProcess } from '../../../../tools/testing/server/serve-process';

const AUDIO: string = ENDPOINTS.audio.path;
const KEY = 'busy-key';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The error body of an answer, checked for the status and code it must carry. */
function errorOf(answer: RawAnswer, expected: number, code: string): ErrorBody {
  expect(answer.status).toBe(expected);
  const body = JSON.parse(answer.body) as ErrorBody;
  expect(body.statusCode).toBe(expected);
  expect(body.error).toBe(code);
  expect(body.request_id).toMatch(/^M-[0-9a-f]{8}$/);
  expect(body.path).toBe(AUDIO);
  return body;
}

/** The head of an upload, with the key given (or none), and none of its body. */
const headOnly = (server: ServeProcess, length: number, key: string | null) =>
  rawExchange(server.url, (socket) => {
    socket.write(uploadHead(AUDIO, 'b0', length, key === null ? '' : `x-service-key: ${key}\r\n`));
  });

const health = async (server: ServeProcess) => {
  const answer = await fetch(`${server.url}/health`);
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
};

describe('murmur serve with every slot transcribing', () => {
  const fixtures = new FixtureDir();
  let server: ServeProcess;
  let long: Uint8Array;

  beforeAll(async () => {
    // Half a minute of speech: on two cores the slots stay busy for far longer than the
    // refusals take.
    long = readFileSync(
      fixtures.ffmpeg('long.mp3', [
        '-stream_loop',
        '-1',
        '-i',
        sharedMedia('speech/beckett.wav'),
        '-t',
        '30',
        '-ac',
        '1',
        '-c:a',
        'libmp3lame',
        '-b:a',
        '32k',
      ]),
    );
    server = await startServe(
      ['--concurrency', '2', '--queue', '0', '--max-upload-mb', '2', '--max-duration-minutes', '5'],
      { MURMUR_SERVICE_KEYS: KEY },
    );
  }, 180_000);
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
    fixtures.remove();
  });

  it('answers 413 for a declared oversized body, 401, 429 and /health at once', async () => {
    const running = [1, 2].map(() => {
      const form = new FormData();
      form.set('audio', new Blob([new Uint8Array(long)]), 'long.mp3');
      return fetch(`${server.url}${AUDIO}`, {
        method: 'POST',
        headers: { 'x-service-key': KEY },
        body: form,
      }).then((answer) => answer.status);
    });
    const end = Date.now() + 60_000;
    while ((await health(server)).body.running !== 2) {
      if (Date.now() > end) throw new Error('Timed out waiting for both slots to transcribe.');
      await sleep(50);
    }

    // All at once, while both slots transcribe and no request may wait (--queue 0).
    const [tooLarge, tooLargeNoKey, wrongKey, busy, busyHealth] = await Promise.all([
      headOnly(server, 600 * 1024 * 1024, KEY),
      headOnly(server, 600 * 1024 * 1024, null),
      headOnly(server, 1000, 'not-a-key'),
      headOnly(server, 1000, KEY),
      health(server),
    ]);
    // Too large whatever the load: the declared size is checked before a place is asked for.
    expect(errorOf(tooLarge, 413, 'payload_too_large').message).toBe(
      'The request is larger than this service accepts (2 MB of media).',
    );
    // The key comes first: without one, the size of the body is nobody's business.
    expect(errorOf(tooLargeNoKey, 401, 'unauthorized').message).toBe(
      'The x-service-key header is missing.',
    );
    expect(errorOf(wrongKey, 401, 'unauthorized').message).toBe(
      'The x-service-key is not a key of this service.',
    );
    expect(errorOf(busy, 429, 'too_many_requests').message).toMatch(
      /^The service is busy \(2 transcriptions running, 0 waiting\); try again in \d+ s\.$/,
    );
    expect(Number(busy.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(busyHealth.status).toBe(200);
    expect(busyHealth.body).toMatchObject({
      status: 'ok',
      running: 2,
      waiting: 0,
      concurrency: 2,
      queue: 0,
    });
    // The slots were busy all along: the transcriptions had not ended when the refusals came.
    expect((await health(server)).body.running).toBe(2);

    // And both transcriptions went on to their answers.
    expect(await Promise.all(running)).toEqual([200, 200]);
  }, 120_000);
});
