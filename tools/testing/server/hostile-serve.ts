/**
 * `murmur serve` with the tight limits the hostile-input tests push against, and the requests
 * and checks they share.
 */
import { existsSync, readdirSync } from 'node:fs';
import { expect } from 'vitest';
import { ENDPOINTS } from '../../../src/core/contract/endpoints';
import type { ErrorBody } from '../../../src/core/contract/errors';
import { curl } from './curl';
import { rawExchange, uploadHead } from './raw-socket';
import { startServe, type ServeProcess } from './serve-process';

export const AUDIO: string = ENDPOINTS.audio.path;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A server without keys that fetches private addresses (the test's media host), with small
 * limits: 2 MB uploads, 10 minutes of media, 2 channels, 2 s of idle connection, 6 s a request,
 * 3 requests waiting; uploads under `uploads`.
 */
export const startHostileServe = (uploads: string): Promise<ServeProcess> =>
  startServe([
    '--no-auth',
    '--allow-private-urls',
    '--max-upload-mb',
    '2',
    '--max-duration-minutes',
    '10',
    '--max-channels',
    '2',
    '--idle-timeout-seconds',
    '2',
    '--request-timeout-seconds',
    '6',
    '--queue',
    '3',
    '--upload-dir',
    uploads,
  ]);

/** The error body of an answer, checked for the status and code it must carry. */
export function errorOf(
  status: number | null,
  text: string,
  expected: number,
  code: string,
): ErrorBody {
  expect(status).toBe(expected);
  const body = JSON.parse(text) as ErrorBody;
  expect(body.statusCode).toBe(expected);
  expect(body.error).toBe(code);
  expect(body.request_id).toMatch(/^M-[0-9a-f]{8}$/);
  return body;
}

/** A multipart form POSTed to the audio endpoint: its status, its body and the whole answer. */
export const post = async (server: ServeProcess, form: string[]) => {
  const answer = await curl([...form.flatMap((f) => ['-F', f]), `${server.url}${AUDIO}`]);
  return { status: answer.status, body: answer.body, answer };
};

/** Sends the head of an upload and the start of its file, then nothing. */
export const stall = (server: ServeProcess) =>
  rawExchange(server.url, (socket) => {
    socket.write(uploadHead(AUDIO, 'b0', 100_000));
    socket.write(
      '--b0\r\ncontent-disposition: form-data; name="audio"; filename="a.wav"\r\n\r\nRIFF',
    );
  });

/** What a folder holds, at any depth; nothing when it is not there. */
export const entries = (dir: string) =>
  existsSync(dir) ? readdirSync(dir, { recursive: true }) : [];
