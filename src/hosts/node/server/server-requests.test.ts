import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, type Endpoint } from '../../../core/contract/endpoints';
import { FIELD_SPECS } from '../../../core/contract/fields';
import { parseRequest } from '../../../core/contract/parse-request';
import type { TranscriptionResponse } from '../../../core/contract/response';
import { FixtureDir, sharedMedia } from '../../../../tools/testing/ffmpeg-fixtures';
import { curl } from '../../../../tools/testing/server/curl';
import { startServe, type ServeProcess } from '../../../../tools/testing/server/serve-process';
import { AUDIO, expectErrorBody, post } from '../../../../tools/testing/server/service-answers';

const KEY = 'test-key-1';
const jfk = sharedMedia('speech/jfk.wav');
const video = sharedMedia('video/echo-hereweare.first12s.derived.mp4');
const withKey = ['-H', `x-service-key: ${KEY}`];

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
});
