import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, type Endpoint } from '../../../core/contract/endpoints';
import type { ErrorBody } from '../../../core/contract/errors';
import { FIELD_SPECS } from '../../../core/contract/fields';
import { parseRequest } from '../../../core/contract/parse-request';
import type { TranscriptionResponse } from '../../../core/contract/response';
import type { WebhookPayload } from '../../../core/webhook/payload';
import { FixtureDir, sharedMedia } from '../../../../tools/testing/ffmpeg-fixtures';
import { curl, type CurlAnswer } from '../../../../tools/testing/server/curl';
import { deadUrl, startReceiver } from '../../../../tools/testing/server/receiver';
import { startServe, type ServeProcess } from '../../../../tools/testing/server/serve-process';

const KEY = 'test-key-1';
const jfk = sharedMedia('speech/jfk.wav');
const video = sharedMedia('video/echo-hereweare.first12s.derived.mp4');
const long = sharedMedia('speech/multilingual.mp3');
const short = sharedMedia('speech/LDC93S1.wav');
const AUDIO: string = ENDPOINTS.audio.path;

function expectErrorBody(answer: CurlAnswer, status: number, error: string, path = AUDIO) {
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

const post = (server: ServeProcess, form: string[], extra: string[] = [], path = AUDIO) =>
  curl([...extra, ...form.flatMap((f) => ['-F', f]), `${server.url}${path}`]);

const withKey = ['-H', `x-service-key: ${KEY}`];

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 30_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('murmur serve, driven with curl', () => {
  let server: ServeProcess;
  const fixtures = new FixtureDir();

  beforeAll(async () => {
    server = await startServe(
      ['--max-upload-mb', '1', '--concurrency', '1', '--queue', '4', '--allow-private-urls'],
      {
        MURMUR_SERVICE_KEYS: `other-key, ${KEY}`,
      },
    );
  }, 180_000);
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
    fixtures.remove();
  });

  it('transcribes on the audio endpoint', async () => {
    const answer = await post(server, [`audio=@${jfk}`, 'output_format=srt'], withKey);
    expect(answer.status).toBe(200);
    expect(answer.headers['x-request-id']).toMatch(/^M-[0-9a-f]{8}$/);
    const body = answer.json() as unknown as TranscriptionResponse;
    expect(body.prediction).toMatch(/^1\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\n /);
    expect(body.prediction_raw.transcription.length).toBeGreaterThan(0);
    expect(body.prediction_raw.metadata.provided_file_metadata.original_file_type).toBe('audio');
    expect(body.prediction_raw.metadata.provided_file_metadata.duration).toBeCloseTo(11, 0);
  });

  it('transcribes on the video endpoint', async () => {
    const answer = await post(server, [`video=@${video}`], withKey, ENDPOINTS.video.path);
    expect(answer.status).toBe(200);
    const body = answer.json() as unknown as TranscriptionResponse;
    expect(body.prediction_raw.metadata.provided_file_metadata.original_file_type).toBe('video');
    expect(JSON.parse(body.prediction)).toEqual(body.prediction_raw.transcription);
  });

  it('refuses a request without a key, and one with a key it does not know (401)', async () => {
    const none = await post(server, [`audio=@${jfk}`]);
    expect(expectErrorBody(none, 401, 'unauthorized').message).toMatch(/x-service-key/);
    const wrong = await post(server, [`audio=@${jfk}`], ['-H', 'x-service-key: test-key-2']);
    expectErrorBody(wrong, 401, 'unauthorized');
  });

  it('answers a text file given as audio with the error body', async () => {
    const text = fixtures.write('notes.txt', 'Minutes of the meeting.\nNothing to hear here.\n');
    const answer = await post(server, [`audio=@${text};type=text/plain`], withKey);
    expect([415, 422]).toContain(answer.status);
    expect(['unsupported_media', 'undecodable_media']).toContain(answer.json().error);
  });

  it('names a missing required field (422)', async () => {
    const answer = await post(server, ['output_format=srt'], withKey);
    const body = expectErrorBody(answer, 422, 'invalid_request');
    expect(body.field_errors.map((p) => p.field)).toEqual(['audio']);
  });

  it('names every bad field of a request at once (422)', async () => {
    const answer = await post(
      server,
      [
        `audio=@${jfk}`,
        'language_behaviour=manual',
        'output_format=docx',
        'toggle_diarization=yes',
      ],
      withKey,
    );
    const body = expectErrorBody(answer, 422, 'invalid_request');
    expect(body.field_errors.map((p) => p.field).sort()).toEqual([
      'language',
      'output_format',
      'toggle_diarization',
    ]);
  });

  it('refuses an upload over the limit (413), declared or streamed', async () => {
    const big = fixtures.write('big.wav', new Uint8Array(3 * 1024 * 1024).fill(7));
    expectErrorBody(await post(server, [`audio=@${big}`], withKey), 413, 'payload_too_large');
    // Under the declared-size check, over the file limit: stopped while it streams to disk.
    const over = fixtures.write('over.wav', new Uint8Array(1.5 * 1024 * 1024).fill(7));
    const answer = await post(server, [`audio=@${over}`], withKey);
    expect(expectErrorBody(answer, 413, 'payload_too_large').field_errors[0]?.field).toBe('audio');
  });

  it('answers a body that is not multipart with 400, and an unknown path with 404', async () => {
    const json = await curl([
      ...withKey,
      '-H',
      'content-type: application/json',
      '-d',
      '{"audio_url":"https://example.com/a.mp3"}',
      `${server.url}${AUDIO}`,
    ]);
    expectErrorBody(json, 400, 'bad_request');
    expectErrorBody(
      await curl([`${server.url}/audio/text/audio-transcriptions/`]),
      404,
      'not_found',
      '/audio/text/audio-transcriptions/',
    );
  });

  it('delivers the result to a webhook with the same prediction', async () => {
    const receiver = await startReceiver();
    try {
      const answer = await post(
        server,
        [`audio=@${jfk}`, 'output_format=vtt', `webhook_url=${receiver.url}`],
        withKey,
      );
      expect(answer.status).toBe(200);
      const [hook] = await receiver.waitFor(1);
      expect(hook!.method).toBe('POST');
      expect(hook!.headers['content-type']).toBe('application/json');
      const delivered = JSON.parse(hook!.body) as WebhookPayload;
      const response = answer.json() as unknown as TranscriptionResponse;
      expect(delivered.request_id).toBe(answer.headers['x-request-id']);
      expect(delivered.payload.prediction).toBe(response.prediction);
      expect(delivered.payload.prediction).toMatch(/^WEBVTT\n\n1\n/);
      expect(delivered.payload).toEqual(response);
    } finally {
      await receiver.close();
    }
  });

  it('succeeds when the webhook cannot be reached, and logs the failed delivery', async () => {
    const url = await deadUrl();
    const answer = await post(server, [`audio=@${jfk}`, `webhook_url=${url}`], withKey);
    expect(answer.status).toBe(200);
    const id = answer.headers['x-request-id'];
    await until(
      () => server.logs().some((l) => l.request_id === id && l.msg === 'webhook'),
      'the webhook outcome',
    );
    const line = server.logs().find((l) => l.request_id === id && l.msg === 'webhook');
    const outcome = line!.webhook as { delivered: boolean; attempts: number; reason: string };
    expect(outcome.delivered).toBe(false);
    expect(outcome.attempts).toBe(3);
    expect(outcome.reason).toMatch(/could not be reached/);
  });

  it('retries a webhook that answers 503, then delivers', async () => {
    const receiver = await startReceiver({ answers: [503, 200] });
    try {
      const answer = await post(server, [`audio=@${jfk}`, `webhook_url=${receiver.url}`], withKey);
      expect(answer.status).toBe(200);
      const received = await receiver.waitFor(2);
      expect(received[1]!.body).toBe(received[0]!.body);
    } finally {
      await receiver.close();
    }
  });

  it("does not follow a webhook receiver's redirect, with --allow-private-urls too", async () => {
    const elsewhere = await startReceiver();
    const redirecting = await startReceiver({ redirectTo: elsewhere.url });
    try {
      const answer = await post(
        server,
        [`audio=@${jfk}`, `webhook_url=${redirecting.url}`],
        withKey,
      );
      expect(answer.status).toBe(200);
      const id = answer.headers['x-request-id'];
      await until(
        () => server.logs().some((l) => l.request_id === id && l.msg === 'webhook'),
        'the webhook outcome',
      );
      const line = server.logs().find((l) => l.request_id === id && l.msg === 'webhook');
      expect(line!.webhook).toEqual({
        url: redirecting.url,
        delivered: false,
        attempts: 1,
        status: 307,
        reason: 'The receiver answered 307 Temporary Redirect (a refusal: not tried again).',
      });
      expect(redirecting.received).toHaveLength(1);
      expect(elsewhere.received).toEqual([]);
    } finally {
      await Promise.all([redirecting.close(), elsewhere.close()]);
    }
  });

  it('logs one JSON line per request with its id, status and stage times', async () => {
    const answer = await post(server, [`audio=@${jfk}`], withKey);
    const id = answer.headers['x-request-id'];
    await until(() => server.logs().some((l) => l.request_id === id), 'the log line');
    const lines = server.logs().filter((l) => l.request_id === id && l.msg === 'request');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ method: 'POST', path: AUDIO, status: 200 });
    const stages = lines[0]!.stages as Record<string, number>;
    expect(stages.inference_time).toBeGreaterThan(0);
    expect(stages.total_transcription_time).toBeGreaterThan(0);
  });

  it('cancels the work of a client that disconnects', async () => {
    const gone = await curl([
      ...withKey,
      '--max-time',
      '1',
      '-F',
      `audio=@${long}`,
      `${server.url}${AUDIO}`,
    ]).catch((e: Error) => e);
    expect(gone).toBeInstanceOf(Error);
    await until(
      () => server.logs().some((l) => l.msg === 'request' && l.status === 499),
      'the cancelled request',
    );
    const health = (await curl([`${server.url}/health`])).json();
    expect(health).toMatchObject({ status: 'ok', running: 0, waiting: 0 });
  });

  it('describes both endpoints in /openapi.json, which a validator accepts', async () => {
    const answer = await curl([`${server.url}/openapi.json`]);
    expect(answer.status).toBe(200);
    const document = answer.json();
    await SwaggerParser.validate(structuredClone(document) as never);
    const paths = document.paths as Record<string, Record<string, unknown>>;
    for (const endpoint of ['audio', 'video'] as Endpoint[]) {
      const operation = paths[ENDPOINTS[endpoint].path]!.post as {
        requestBody: {
          content: Record<string, { schema: { properties: Record<string, unknown> } }>;
        };
        responses: Record<string, unknown>;
      };
      const properties = operation.requestBody.content['multipart/form-data']!.schema.properties;
      // Every field the parser knows for the endpoint is described...
      const known = FIELD_SPECS.filter((f) => !f.endpoint || f.endpoint === endpoint);
      expect(Object.keys(properties).sort()).toEqual(known.map((f) => f.name).sort());
      // ...and the parser takes every described field as one of its own.
      const result = parseRequest(
        { keys: () => Object.keys(properties), get: () => null },
        endpoint,
      );
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.problems.filter((p) => /not a field/.test(p.message))).toEqual([]);
      }
      for (const status of ['200', '401', '413', '422', '429']) {
        expect(operation.responses).toHaveProperty(status);
      }
    }
    const docs = await curl([`${server.url}/docs/`, '-L']);
    expect(docs.status).toBe(200);
    expect(docs.body).toMatch(/<html/i);
  });

  it('serves fifteen requests in a row without growing in memory', async () => {
    for (let i = 0; i < 3; i++)
      expect((await post(server, [`audio=@${short}`], withKey)).status).toBe(200);
    const before = await server.rssKb();
    for (let i = 0; i < 15; i++)
      expect((await post(server, [`audio=@${short}`], withKey)).status).toBe(200);
    const after = await server.rssKb();
    const grownMb = (after - before) / 1024;
    console.log(
      `serve: resident ${(before / 1024).toFixed(0)} MB -> ${(after / 1024).toFixed(0)} MB over 15 requests`,
    );
    expect(grownMb).toBeLessThan(64);
  }, 300_000);
});

describe('murmur serve under load and at shutdown', () => {
  it('refuses to start without keys unless --no-auth is given', async () => {
    await expect(startServe([], { MURMUR_SERVICE_KEYS: '' })).rejects.toThrow(/no service keys/);
  });

  it('serves what fits and answers the rest 429, with --concurrency 1 --queue 1', async () => {
    const server = await startServe(['--no-auth', '--concurrency', '1', '--queue', '1']);
    try {
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => post(server, [`audio=@${jfk}`])),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
      for (const answer of answers.filter((a) => a.status === 429)) {
        expectErrorBody(answer, 429, 'too_many_requests');
        expect(Number(answer.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      }
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 120_000);

  it('finishes a request in flight on SIGTERM, refuses new ones, then exits', async () => {
    // A grace period longer than the transcription takes on a busy machine, and an 11-s file:
    // the request is running when SIGTERM comes (health says so just before), and its work
    // stays small on a loaded machine.
    const server = await startServe(['--no-auth', '--shutdown-grace-seconds', '600']);
    const inFlight = post(server, [`audio=@${jfk}`]);
    await until(
      async () => (await curl([`${server.url}/health`])).json().running === 1,
      'the request to start',
    );
    server.child.kill('SIGTERM');
    await until(() => /SIGTERM/.test(server.stderr()), 'the server to hear SIGTERM');
    const late = await post(server, [`audio=@${jfk}`]).catch((e: Error) => e);
    if (!(late instanceof Error)) expectErrorBody(late, 503, 'engine_unavailable');
    const answer = await inFlight;
    expect(answer.status).toBe(200);
    expect(
      (answer.json() as unknown as TranscriptionResponse).prediction_raw.transcription.length,
    ).toBeGreaterThan(0);
    expect(await server.exited).toBe(0);
  }, 300_000);
});
