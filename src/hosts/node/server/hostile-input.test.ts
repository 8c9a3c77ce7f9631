import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../core/contract/endpoints';
import { toServiceError, type ErrorBody } from '../../../core/contract/errors';
import { prepareAudio } from '../../../engine/pipeline';
import {
  FixtureDir,
  mediaRequest,
  testEnginePorts,
} from '../../../../tools/testing/ffmpeg-fixtures';
import { curl } from '../../../../tools/testing/server/curl';
import {
  flacClaiming,
  mp3UnderstatingLength,
  wavHeader,
} from '../../../../tools/testing/server/hostile-media';
import { startMediaHost } from '../../../../tools/testing/server/media-host';
import { rawExchange, uploadHead } from '../../../../tools/testing/server/raw-socket';
import { startServe, type ServeProcess } from '../../../../tools/testing/server/serve-process';

const AUDIO: string = ENDPOINTS.audio.path;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The error body of an answer, checked for the status and code it must carry. */
function errorOf(status: number | null, text: string, expected: number, code: string): ErrorBody {
  expect(status).toBe(expected);
  const body = JSON.parse(text) as ErrorBody;
  expect(body.statusCode).toBe(expected);
  expect(body.error).toBe(code);
  expect(body.request_id).toMatch(/^M-[0-9a-f]{8}$/);
  return body;
}

const post = async (server: ServeProcess, form: string[]) => {
  const answer = await curl([...form.flatMap((f) => ['-F', f]), `${server.url}${AUDIO}`]);
  return { status: answer.status, body: answer.body, answer };
};

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 30_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}.`);
    await sleep(50);
  }
}

/** Sends the head of an upload and the start of its file, then nothing. */
const stall = (server: ServeProcess) =>
  rawExchange(server.url, (socket) => {
    socket.write(uploadHead(AUDIO, 'b0', 100_000));
    socket.write(
      '--b0\r\ncontent-disposition: form-data; name="audio"; filename="a.wav"\r\n\r\nRIFF',
    );
  });

const entries = (dir: string) => (existsSync(dir) ? readdirSync(dir, { recursive: true }) : []);

describe('murmur serve under hostile input', () => {
  const fixtures = new FixtureDir();
  const uploads = fixtures.path('uploads');
  let server: ServeProcess;
  let host: Awaited<ReturnType<typeof startMediaHost>>;

  beforeAll(async () => {
    host = await startMediaHost();
    server = await startServe([
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
  }, 180_000);
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
    await host.close();
    fixtures.remove();
  });

  it('refuses ten hours of 8-channel silence from its probe (413), without decoding it', async () => {
    const eight = flacClaiming(fixtures, 's8.flac', 8, 10);
    const answer = await post(server, [`audio=@${eight}`]);
    expect(errorOf(answer.status, answer.body, 413, 'payload_too_large').message).toBe(
      '"s8.flac" has 8 audio channels; this service accepts at most 2.',
    );
    const mono = flacClaiming(fixtures, 's1.flac', 1, 10);
    const tooLong = await post(server, [`audio=@${mono}`]);
    expect(errorOf(tooLong.status, tooLong.body, 413, 'payload_too_large').message).toBe(
      '"s1.flac" is too long for this service: it accepts media of up to 10 min, and this file holds 600 min.',
    );
    // Eleven real minutes, one past the limit: the probe of a file that is what it says.
    const eleven = fixtures.ffmpeg('eleven.flac', [
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=8000:cl=mono',
      '-t',
      '660',
      '-c:a',
      'flac',
    ]);
    const real = await post(server, [`audio=@${eleven}`]);
    expect(errorOf(real.status, real.body, 413, 'payload_too_large').message).toMatch(
      /holds 11 min\.$/,
    );
    expect(await server.rssKb()).toBeLessThan(1.5 * 1024 * 1024);
  });

  it('answers /health at once while a nine-minute file decodes', async () => {
    const nine = fixtures.ffmpeg('nine.mp3', [
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=16000:cl=stereo',
      '-t',
      '540',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '24k',
    ]);
    const transcription = post(server, [`audio=@${nine}`]);
    const latencies: number[] = [];
    let done = false;
    void transcription.finally(() => (done = true));
    while (!done) {
      const started = performance.now();
      // fetch, not curl: starting a curl process takes longer than the answer on a busy machine.
      expect((await fetch(`${server.url}/health`)).status).toBe(200);
      latencies.push(performance.now() - started);
      await sleep(50);
    }
    expect((await transcription).status).toBe(200);
    latencies.sort((a, b) => a - b);
    console.log(
      `health while decoding: ${latencies.length} probes, median ${latencies[latencies.length >> 1]!.toFixed(0)} ms, max ${latencies.at(-1)!.toFixed(0)} ms`,
    );
    // Every probe was answered (200) while the file was transcribed, again and again: with the
    // engine on the server's thread one probe waited for the whole transcription. How fast is
    // the benchmark's business (tools/bench/serve-latency.ts), not a test's.
    expect(latencies.length).toBeGreaterThanOrEqual(5);
  }, 120_000);

  it('refuses a file whose header claims 80 hours with 413, not 500', async () => {
    const claims = flacClaiming(fixtures, 'claims.flac', 1, 80);
    const answer = await post(server, [`audio=@${claims}`]);
    expect(errorOf(answer.status, answer.body, 413, 'payload_too_large').message).toBe(
      '"claims.flac" is too long for this service: it accepts media of up to 10 min, and this file holds 4800 min.',
    );
    // Without a limit (the CLI's pipeline), what a header claims does not size memory either.
    const file = await fixtures.file(claims);
    const outcome = await prepareAudio(
      mediaRequest({ kind: 'file', file }),
      testEnginePorts(),
    ).then(
      (audio) => audio.file.duration,
      (e: unknown) => toServiceError(e).message,
    );
    expect(outcome).toBe(2);
  });

  it('refuses an mp3 whose header understates its length with 413 at the limit, every time', async () => {
    // Twelve minutes that ffprobe reads as under a minute: decoding finds the limit.
    const path = mp3UnderstatingLength(fixtures, 'understated.mp3', 12);
    for (let run = 0; run < 3; run++) {
      const answer = await post(server, [`audio=@${path}`]);
      expect(errorOf(answer.status, answer.body, 413, 'payload_too_large').message).toBe(
        '"understated.mp3" is too long for this service: it accepts media of up to 10 min, and this file holds more than that.',
      );
    }
  });

  it('answers a WAV with a header and no samples with 422, not an empty transcript', async () => {
    const wav = fixtures.write('header-only.wav', wavHeader(0));
    const answer = await post(server, [`audio=@${wav}`]);
    expect(errorOf(answer.status, answer.body, 422, 'undecodable_media').message).toBe(
      '"header-only.wav" holds no audio samples: nothing follows its header.',
    );
  });

  it('refuses a WAV header claiming 512, 1000 or 65,535 channels with 413 naming the count', async () => {
    for (const channels of [512, 1000, 65_535]) {
      const wav = fixtures.write(
        `c${channels}.wav`,
        wavHeader(channels * 4, new Uint8Array(channels * 4).fill(128), channels),
      );
      const answer = await post(server, [`audio=@${wav}`]);
      const body = errorOf(answer.status, answer.body, 413, 'payload_too_large');
      expect(body.message).toBe(
        `"c${channels}.wav" has ${channels} audio channels; this service accepts at most 2.`,
      );
      const id = answer.answer.headers['x-request-id'];
      await until(() => server.logs().some((l) => l.request_id === id), 'the log line');
      const line = server.logs().find((l) => l.request_id === id && l.msg === 'request');
      expect(line).toMatchObject({ status: 413, error: { message: body.message } });
    }
    expect(JSON.stringify(server.logs())).not.toContain('[object Object]');
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

  it('answers 70 KB of headers with 431 and the error body', async () => {
    const answer = await curl(['-H', `x-filler: ${'a'.repeat(70_000)}`, `${server.url}/health`]);
    const body = errorOf(answer.status, answer.body, 431, 'headers_too_large');
    expect(body.message).toBe(
      'The request headers are larger than this service reads (16 KB in all).',
    );
    expect(body.path).toBe('/health');
  });

  it('answers headers that stall with 408 and the error body', async () => {
    const answer = await rawExchange(server.url, (socket) => {
      socket.write(`POST ${AUDIO} HTTP/1.1\r\nhost: 127.0.0.1\r\n`);
    });
    expect(errorOf(answer.status, answer.body, 408, 'request_timeout').message).toBe(
      'The request headers did not arrive within 2 s, so the connection was closed.',
    );
  });

  it('answers a body that stalls after 4 bytes with 408, and holds nothing of it after', async () => {
    const answer = await stall(server);
    expect(errorOf(answer.status, answer.body, 408, 'request_timeout').message).toBe(
      'The upload stalled: nothing arrived for 2 s, so the request was given up.',
    );
    expect((await curl([`${server.url}/health`])).json()).toMatchObject({
      running: 0,
      waiting: 0,
      uploads: { reading: 0, bytes: 0 },
    });
    expect(entries(uploads).filter((e) => String(e).includes('request-'))).toEqual([]);
  });

  it('gives up a body that trickles a byte a second once it passes the total time (408)', async () => {
    const answer = await rawExchange(server.url, async (socket) => {
      socket.write(uploadHead(AUDIO, 'b1', 100_000));
      socket.write(
        '--b1\r\ncontent-disposition: form-data; name="audio"; filename="a.wav"\r\n\r\n',
      );
      while (!socket.destroyed && !socket.readableEnded) {
        await sleep(1000);
        if (!socket.destroyed) socket.write('R');
      }
    });
    expect(errorOf(answer.status, answer.body, 408, 'request_timeout').message).toBe(
      'The upload took longer than 6 s, so the request was given up.',
    );
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

  it('streams audio_url to disk under the upload limit (413), whatever its length', async () => {
    const before = await server.rssKb();
    const endless = await post(server, [`audio_url=${host.url('/endless.wav')}`]);
    expect(errorOf(endless.status, endless.body, 413, 'payload_too_large').message).toBe(
      'The media at audio_url is larger than this service accepts (2 MB).',
    );
    const huge = await post(server, [`audio_url=${host.url('/huge.wav')}`]);
    expect(errorOf(huge.status, huge.body, 413, 'payload_too_large').message).toBe(
      'The media at audio_url is larger than this service accepts (2 MB).',
    );
    expect((await server.rssKb()) - before).toBeLessThan(100 * 1024);
  });

  it('answers a media URL cut short, or one that trickles, with 502 naming why', async () => {
    const cut = await post(server, [`audio_url=${host.url('/cut.wav')}`]);
    expect(errorOf(cut.status, cut.body, 502, 'url_fetch_failed').message).toBe(
      'The media at audio_url could not be fetched: the connection was closed before the whole file arrived.',
    );
    const trickle = await post(server, [`audio_url=${host.url('/trickle.wav')}`]);
    expect(errorOf(trickle.status, trickle.body, 502, 'url_fetch_failed').message).toBe(
      'The media at audio_url could not be fetched: it took longer than 6 s in all.',
    );
  });
});

describe('murmur serve: private addresses, and stopping', () => {
  const fixtures = new FixtureDir();
  const uploads = fixtures.path('uploads');
  afterAll(() => fixtures.remove());

  it('refuses audio_url and webhook_url on loopback without describing what is there', async () => {
    const host = await startMediaHost();
    const server = await startServe(['--no-auth', '--upload-dir', uploads]);
    try {
      const wav = fixtures.write('tiny.wav', wavHeader(8000, new Uint8Array(8000).fill(128)));
      const literal = await post(server, [`audio_url=${host.url('/page.html')}`]);
      expect(errorOf(literal.status, literal.body, 422, 'invalid_request').field_errors).toEqual([
        {
          field: 'audio_url',
          message:
            'audio_url is not a public address (loopback, private or reserved addresses are not fetched).',
        },
      ]);
      const named = await post(server, [`audio_url=http://localhost:${host.port}/page.html`]);
      const body = errorOf(named.status, named.body, 502, 'url_fetch_failed');
      expect(body.message).toBe(
        'The media at audio_url could not be fetched: its host resolves to an address that is not public.',
      );
      const hook = await post(server, [
        `audio=@${wav}`,
        `webhook_url=http://[::ffff:127.0.0.1]:${host.port}/hook`,
      ]);
      expect(errorOf(hook.status, hook.body, 422, 'invalid_request').field_errors[0]?.field).toBe(
        'webhook_url',
      );
    } finally {
      expect(await server.stop()).toBe(0);
      await host.close();
    }
  }, 120_000);

  it('on SIGTERM answers new requests 503, cancels a stalled upload after the grace period, leaves no upload folder', async () => {
    const server = await startServe([
      '--no-auth',
      '--upload-dir',
      uploads,
      '--shutdown-grace-seconds',
      '2',
    ]);
    const stalled = stall(server);
    await until(() => entries(uploads).some((e) => String(e).includes('request-')), 'the upload');
    server.child.kill('SIGTERM');
    await until(() => /SIGTERM/.test(server.stderr()), 'the server to hear SIGTERM');
    const late = await curl([`${server.url}/health`]);
    expect(errorOf(late.status, late.body, 503, 'engine_unavailable').message).toBe(
      'The service is stopping; send the request again (to another instance).',
    );
    const answer = await stalled;
    expect(errorOf(answer.status, answer.body, 503, 'engine_unavailable').message).toBe(
      'The service stopped before this request finished (2 s after it was asked to stop); send it again.',
    );
    expect(await server.exited).toBe(0);
    expect(entries(uploads)).toEqual([]);
  }, 120_000);

  it('sweeps the upload folder of an instance killed with SIGKILL when the next one starts', async () => {
    const killed = await startServe(['--no-auth', '--upload-dir', uploads]);
    void stall(killed).catch(() => undefined);
    await until(() => entries(uploads).some((e) => String(e).includes('request-')), 'the upload');
    killed.child.kill('SIGKILL');
    await killed.exited;
    const left = join(uploads, String(killed.child.pid));
    expect(existsSync(left)).toBe(true);
    mkdirSync(join(uploads, 'not-ours'), { recursive: true });
    const next = await startServe(['--no-auth', '--upload-dir', uploads]);
    try {
      expect(existsSync(left)).toBe(false);
      expect(next.stderr()).toMatch(/removed the upload folders of 1 instance no longer running/);
      // Only the folders named by process ids are the server's to sweep.
      expect(existsSync(join(uploads, 'not-ours'))).toBe(true);
    } finally {
      expect(await next.stop()).toBe(0);
    }
  }, 120_000);
});
