/** Requests to `murmur serve` by curl, and the checks its error bodies pass. */
import { expect } from 'vitest';
import { ENDPOINTS } from '../../../src/core/contract/endpoints';
import type { ErrorBody } from '../../../src/core/contract/errors';
import { curl, type CurlAnswer } from './curl';
import type { ServeProcess } from './serve-process';

export const AUDIO: string = ENDPOINTS.audio.path;

/** The error body of `answer`, checked for its status, its code, its path and the spec's fields. */
export function expectErrorBody(answer: CurlAnswer, status: number, error: string, path = AUDIO) {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toMatch(/application\/json/);
  const body = answer.json() as unknown as ErrorBody;
  expect(body.statusCode).toBe(status);
  expect(body.error).toBe(error);
  expect(body.path).toBe(path);
  expect(body.request_id).toMatch(/^M-[0-9a-f]{8}$/);
  expect(Date.parse(body.timestamp)).not.toBeNaN();
  expect(body.message.length).toBeGreaterThan(10);
  return body;
}

/** A multipart form POSTed to `path` of `server`, with `extra` curl arguments first. */
export const post = (server: ServeProcess, form: string[], extra: string[] = [], path = AUDIO) =>
  curl([...extra, ...form.flatMap((f) => ['-F', f]), `${server.url}${path}`]);
