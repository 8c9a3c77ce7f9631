import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixtureDir, sharedMedia } from '../../../../tools/testing/ffmpeg-fixtures';
import { curl } from '../../../../tools/testing/server/curl';
import { startServe, type ServeProcess } from '../../../../tools/testing/server/serve-process';
import { AUDIO, post } from '../../../../tools/testing/server/service-answers';
import { until } from '../../../../tools/testing/until';

const KEY = 'test-key-1';
const jfk = sharedMedia('speech/jfk.wav');
const long = sharedMedia('speech/multilingual.mp3');
const short = sharedMedia('speech/LDC93S1.wav');
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
