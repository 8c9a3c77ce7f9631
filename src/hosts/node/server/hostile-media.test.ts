import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toServiceError } from '../../../core/contract/errors';
import { prepareAudio } from '../../../engine/pipeline';
import {
  FixtureDir,
  mediaRequest,
  testEnginePorts,
} from '../../../../tools/testing/ffmpeg-fixtures';
import {
  errorOf,
  post,
  sleep,
  startHostileServe,
} from '../../../../tools/testing/server/hostile-serve';
import {
  flacClaiming,
  mp3UnderstatingLength,
  wavHeader,
} from '../../../../tools/testing/server/hostile-media';
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
});
