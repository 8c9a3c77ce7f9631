import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../core/contract/endpoints';
import { FixtureDir } from '../../../../tools/testing/ffmpeg-fixtures';
import { curl } from '../../../../tools/testing/server/curl';
import {
  AUDIO,
  entries,
  errorOf,
  post,
  sleep,
  startHostileServe,
} from '../../../../tools/testing/server/hostile-serve';
import { wavHeader } from '../../../../tools/testing/server/hostile-media';
import { rawExchange, uploadHead } from '../../../../tools/testing/server/raw-socket';
import type { ServeProcess } from '../../../../tools/testing/server/serve-process';
import { until } from '../../../../tools/testing/until';

describe('murmur serve under hostile input', () => {
  const fixtures = new FixtureDir();
  const uploads = fixtures.path('uploads');
  let server: ServeProcess;

  beforeAll(async () => {
    server = await startHostileServe(uploads);
  }, 180_000);
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
    fixtures.remove();
  });

  it('answers a field named __proto__ with 422 naming it, and logs the code and message', async () => {
    const wav = fixtures.write('tiny.wav', wavHeader(8000, new Uint8Array(8000).fill(128)));
    const answer = await post(server, [`audio=@${wav}`, '__proto__=x']);
    const body = errorOf(answer.status, answer.body, 422, 'invalid_request');
    expect(body.message).toBe(
      'A field of the form is named after a built-in property (such as __proto__ or constructor); no field of this service is.',
    );
    const id = answer.answer.headers['x-request-id'];
    await until(() => server.logs().some((l) => l.request_id === id), 'the log line');
    const line = server.logs().find((l) => l.request_id === id && l.msg === 'request');
    expect(line).toMatchObject({
      status: 422,
      error: { code: 'invalid_request', message: body.message },
    });
  });

  it('answers a field given twice with 422 rather than keeping the last', async () => {
    const wav = fixtures.path('tiny.wav');
    const answer = await post(server, [`audio=@${wav}`, 'output_format=srt', 'output_format=vtt']);
    const body = errorOf(answer.status, answer.body, 422, 'invalid_request');
    expect(body.field_errors).toEqual([
      {
        field: 'output_format',
        message: 'output_format is given more than once; give it once.',
      },
    ]);
  });

  it('stops a chunked form at its second file part (400), with nothing left on disk', async () => {
    const part = Buffer.alloc(256 * 1024, 7);
    const answer = await rawExchange(server.url, async (socket) => {
      socket.write(uploadHead(AUDIO, 'b2', 'chunked'));
      const chunk = (data: Buffer | string) => {
        const bytes = Buffer.from(data);
        socket.write(`${bytes.length.toString(16)}\r\n`);
        socket.write(bytes);
        socket.write('\r\n');
      };
      // Ten parts stay under the body's cap (file limit + form overhead, 3 MB here): however far
      // a busy server's parser lags behind its socket, the cap cannot answer before the rule.
      for (let i = 0; i < 10 && !socket.destroyed; i++) {
        chunk(
          `--b2\r\ncontent-disposition: form-data; name="audio${i}"; filename="${i}.wav"\r\n\r\n`,
        );
        chunk(part);
        chunk('\r\n');
        await sleep(5);
      }
    });
    expect(errorOf(answer.status, answer.body, 400, 'bad_request').message).toBe(
      'The form has more than one file; send one (audio or video) per request.',
    );
    expect(entries(uploads).filter((e) => String(e).includes('request-'))).toEqual([]);
  });

  it('refuses a form whose fields pass the total body cap (413)', async () => {
    const field = 'x'.repeat(60 * 1024);
    const answer = await rawExchange(server.url, async (socket) => {
      socket.write(uploadHead(AUDIO, 'b3', 'chunked'));
      for (let i = 0; i < 60 && !socket.destroyed; i++) {
        const text = `--b3\r\ncontent-disposition: form-data; name="f${i}"\r\n\r\n${field}\r\n`;
        socket.write(`${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`);
        await sleep(2);
      }
    });
    expect(errorOf(answer.status, answer.body, 413, 'payload_too_large').message).toBe(
      'The request body is larger than this service accepts (3 MB in all).',
    );
  });

  it('quotes at most the start of what it is sent, always in the error body', async () => {
    const huge = fixtures.write('huge-value.txt', 'x'.repeat(60_000));
    const wav = fixtures.write('one.wav', wavHeader(8000, new Uint8Array(8000).fill(128)));
    const field = await post(server, [`audio=@${wav}`, `output_format=<${huge}`]);
    const start = `"${'x'.repeat(64)}…" (60000 characters)`;
    const body = errorOf(field.status, field.body, 422, 'invalid_request');
    expect(body.field_errors).toEqual([
      {
        field: 'output_format',
        message: `output_format must be one of json, srt, vtt, txt; got ${start}.`,
      },
    ]);
    expect(field.body.length).toBeLessThan(2048);

    // A file field sent as text (a part without a file name), however long, is said as such.
    const bigWav = fixtures.write('big.wav', wavHeader(8000, new Uint8Array(80_000).fill(128)));
    const asText = await post(server, [`audio=<${bigWav}`]);
    expect(errorOf(asText.status, asText.body, 422, 'invalid_request').field_errors).toEqual([
      {
        field: 'audio',
        message: 'audio must be a file upload, not text (its form part has no file name).',
      },
    ]);

    // A field's name is cut as its value is.
    const longName = await post(server, [`audio=@${wav}`, `${'n'.repeat(60_000)}=1`]);
    const unknownName = errorOf(longName.status, longName.body, 422, 'invalid_request');
    expect(unknownName.field_errors).toEqual([
      {
        field: `${'n'.repeat(128)}…`,
        message: `${'n'.repeat(128)}… is not a field of this service.`,
      },
    ]);
    expect(longName.body.length).toBeLessThan(4096);

    // A job id far longer than any the service gives, and one just past the router's default.
    const ids = [
      ['j'.repeat(8000), `/v2/transcription/${'j'.repeat(110)}…`],
      ['j'.repeat(101), `/v2/transcription/${'j'.repeat(101)}`],
    ];
    for (const [id, path] of ids) {
      const job = await curl([`${server.url}/v2/transcription/${id}`]);
      const notFound = errorOf(job.status, job.body, 404, 'not_found');
      expect(notFound.path).toBe(path);
      expect(notFound.message).toBe(
        `No job "${'j'.repeat(64)}…" (${id!.length} characters): never submitted, or its result has expired.`,
      );
      expect(job.body.length).toBeLessThan(2048);
    }
    const path = `/${'p'.repeat(8000)}`;
    const unknown = await curl([`${server.url}${path}`]);
    const noEndpoint = errorOf(unknown.status, unknown.body, 404, 'not_found');
    expect(noEndpoint.path).toBe(`${path.slice(0, 128)}…`);
    expect(noEndpoint.message).toBe(
      `No endpoint GET ${path.slice(0, 128)}…. The service has POST ${AUDIO} and POST ${ENDPOINTS.video.path}; see /docs.`,
    );
    // A path longer than the headers may be: Node's own refusal, in the error body too.
    const overflow = await curl([`${server.url}/${'q'.repeat(20_000)}`]);
    const tooLarge = errorOf(overflow.status, overflow.body, 431, 'headers_too_large');
    expect(tooLarge.path).toBe(`/${'q'.repeat(127)}…`);
    expect(overflow.body.length).toBeLessThan(2048);
    const undecodable = await curl([`${server.url}/v2/transcription/%zz`]);
    expect(errorOf(undecodable.status, undecodable.body, 400, 'bad_request').message).toBe(
      'The path cannot be read: a % in it must be followed by two hexadecimal digits.',
    );
    const named = fixtures.write('minutes.txt', 'Minutes of the meeting.\n');
    const text = await post(server, [`audio=@${named};filename=${'n'.repeat(9000)}.txt`]);
    expect(errorOf(text.status, text.body, 415, 'unsupported_media').message).toBe(
      `"${'n'.repeat(64)}…" (256 characters) is a text file, not audio or video. Give an audio or video file.`,
    );
  });
});
