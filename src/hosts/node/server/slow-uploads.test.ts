import type { Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../core/contract/endpoints';
import type { ErrorBody } from '../../../core/contract/errors';
import type { TranscriptionResponse } from '../../../core/contract/response';
import { sharedMedia } from '../../../../tools/testing/ffmpeg-fixtures';
import { curl } from '../../../../tools/testing/server/curl';
import {
  rawExchange,
  uploadHead,
  type RawAnswer,
} from '../../../../tools/testing/server/raw-socket';
import { startServe, type ServeProcess } from '../../../../tools/testing/server/serve-process';

const AUDIO: string = ENDPOINTS.audio.path;
const jfk = sharedMedia('speech/jfk.wav');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 30_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}.`);
    await sleep(50);
  }
}

interface Health {
  running: number;
  waiting: number;
  uploads: { reading: number; bytes: number; max_bytes: number };
}

const health = async (server: ServeProcess) =>
  (await (await fetch(`${server.url}/health`)).json()) as Health;

/**
 * A client that uploads a form whose file is declared `fileBytes` long: it sends `first` bytes
 * of the file at once, then a byte every `everyMs` until `stop` is called (the socket is then
 * closed without the rest).
 */
function slowClient(server: ServeProcess, fileBytes: number, first: number, everyMs: number) {
  let socket: Socket | null = null;
  let stopped = false;
  const head =
    '--s0\r\ncontent-disposition: form-data; name="audio"; filename="slow.wav"\r\n' +
    'content-type: audio/wav\r\n\r\n';
  const tail = '\r\n--s0--\r\n';
  const answer = rawExchange(server.url, async (s) => {
    socket = s;
    s.write(uploadHead(AUDIO, 's0', head.length + fileBytes + tail.length));
    s.write(head);
    s.write(Buffer.alloc(first, 1));
    while (!stopped && !s.destroyed) {
      await sleep(everyMs);
      if (!stopped && !s.destroyed) s.write(Buffer.alloc(1, 1));
    }
  });
  return {
    answer,
    stop: () => {
      stopped = true;
      (socket as Socket | null)?.destroy();
    },
  };
}

describe('murmur serve with clients that upload slowly', () => {
  let server: ServeProcess;

  beforeAll(async () => {
    server = await startServe([
      '--no-auth',
      '--concurrency',
      '1',
      '--queue',
      '2',
      '--max-upload-mb',
      '1',
      '--idle-timeout-seconds',
      '30',
      '--request-timeout-seconds',
      '300',
    ]);
  }, 180_000);
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  it('serves a normal request while more slow uploads than it has places trickle in', async () => {
    // Four clients, one more than --concurrency 1 + --queue 2, each sending a byte every 200 ms.
    const slow = Array.from({ length: 4 }, () => slowClient(server, 500_000, 10, 200));
    try {
      await until(async () => (await health(server)).uploads.reading === 4, 'the slow uploads');
      // They hold a socket each and the bytes they sent, and no place: nothing runs or waits.
      expect(await health(server)).toMatchObject({
        running: 0,
        waiting: 0,
        uploads: { reading: 4 },
      });

      const answer = await curl(['-F', `audio=@${jfk}`, `${server.url}${AUDIO}`]);
      expect(answer.status).toBe(200);
      const body = answer.json() as unknown as TranscriptionResponse;
      expect(body.prediction_raw.transcription.length).toBeGreaterThan(0);

      // The slow ones were still uploading all the while, and still are.
      const after = await health(server);
      expect(after).toMatchObject({ running: 0, waiting: 0, uploads: { reading: 4 } });
      expect(after.uploads.bytes).toBeLessThan(4 * 1000);
    } finally {
      for (const client of slow) client.stop();
    }
    await Promise.all(slow.map((client) => client.answer));
    await until(
      async () => (await health(server)).uploads.reading === 0,
      'the slow uploads to end',
    );
  }, 120_000);

  it('refuses with 429 an upload past what the uploads being read may hold together', async () => {
    // Three uploads of a million bytes each, then a byte now and then: nearly all of the 3 MB
    // that uploads being read may hold together (--max-upload-mb 1 x the 3 places).
    const held = Array.from({ length: 3 }, () => slowClient(server, 1_040_000, 1_000_000, 5_000));
    try {
      await until(
        async () => (await health(server)).uploads.bytes >= 3_000_000,
        'the three uploads to arrive so far',
      );
      expect((await health(server)).uploads).toMatchObject({
        reading: 3,
        max_bytes: 3 * 1024 * 1024,
      });
      const answer = await curl(['-F', `audio=@${jfk}`, `${server.url}${AUDIO}`]);
      expect(answer.status).toBe(429);
      expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      const body = answer.json() as unknown as ErrorBody;
      expect(body.error).toBe('too_many_requests');
      expect(body.message).toBe(
        'The service is busy receiving other uploads (3 MB at most at once); send the request again in a moment.',
      );
    } finally {
      for (const client of held) client.stop();
    }
    const answers: RawAnswer[] = await Promise.all(held.map((client) => client.answer));
    expect(answers.every((a) => a.status === null)).toBe(true);
    await until(async () => (await health(server)).uploads.reading === 0, 'the uploads to end');
    expect((await health(server)).uploads.bytes).toBe(0);
    // What they held is given back: the same request is served now.
    expect((await curl(['-F', `audio=@${jfk}`, `${server.url}${AUDIO}`])).status).toBe(200);
  }, 120_000);
});
