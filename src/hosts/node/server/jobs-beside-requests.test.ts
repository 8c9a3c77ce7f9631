import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixtureDir, sharedMedia } from '../../../../tools/testing/ffmpeg-fixtures';
import { jobClient } from '../../../../tools/testing/jobs/job-client';
import { curl } from '../../../../tools/testing/server/curl';
import { startServe, type ServeProcess } from '../../../../tools/testing/server/serve-process';
import { until } from '../../../../tools/testing/until';

describe('async jobs and synchronous requests on the same engines, in memory', () => {
  const fixtures = new FixtureDir();
  const short = sharedMedia('speech/LDC93S1.wav');
  let server: ServeProcess;
  let jobs: ReturnType<typeof jobClient>;

  beforeAll(async () => {
    server = await startServe(['--no-auth', '--concurrency', '1', '--queue', '8']);
    jobs = jobClient(server.url);
  }, 180_000);
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
    fixtures.remove();
  });

  const health = async () => (await curl([`${server.url}/health`])).json();
  const metric = async (series: string) => {
    const text = (await curl([`${server.url}/metrics`])).body;
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? 0 : Number(line.slice(series.length + 1));
  };

  it('counts a running job in the places: the queue is what waits beside it, never a negative wait', async () => {
    // Three minutes of speech: it runs for far longer than the requests below take to be told.
    const long = fixtures.ffmpeg('three-minutes.mp3', [
      '-stream_loop',
      '-1',
      '-i',
      sharedMedia('speech/beckett.wav'),
      '-t',
      '180',
      '-ac',
      '1',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '32k',
    ]);
    const { id } = (await jobs.submit([`audio=@${long}`])).json() as { id: string };
    await jobs.until(id, (v) => v.status === 'processing', 'processing');
    expect(await health()).toMatchObject({ running: 1, waiting: 0, jobs: { processing: 1 } });

    const requests = Array.from({ length: 20 }, () =>
      curl(['-F', `audio=@${short}`, `${server.url}/audio/text/audio-transcription/`]),
    );
    const statuses: number[] = [];
    for (const request of requests) void request.then((a) => statuses.push(a.status));
    // Those refused are told at once; those admitted wait for the job's slot.
    await until(
      async () => statuses.length === 12 && (await health()).waiting === 8,
      'twelve refusals and eight requests waiting',
      60_000,
    );
    expect(statuses).toEqual(Array(12).fill(429));
    expect(await health()).toMatchObject({ running: 1, waiting: 8 });
    // The job ran all along, so the eight are the queue beside it, not one more.
    expect((await jobs.view(id)).status).toBe('processing');

    expect((await jobs.cancel(id)).json()).toMatchObject({ status: 'cancelled' });
    const answers = await Promise.all(requests);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(8);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(12);
    expect(await health()).toMatchObject({ running: 0, waiting: 0 });
  }, 300_000);

  it('counts a synchronous request in the job events as in the job durations', async () => {
    const series = [
      'murmur_job_events_total{event="queued"}',
      'murmur_job_events_total{event="processing"}',
      'murmur_job_events_total{event="done"}',
      'murmur_job_duration_seconds_count{status="done"}',
    ];
    const before = await Promise.all(series.map(metric));
    const answer = await curl([
      '-F',
      `audio=@${short}`,
      `${server.url}/audio/text/audio-transcription/`,
    ]);
    expect(answer.status).toBe(200);
    const after = await Promise.all(series.map(metric));
    expect(after.map((value, i) => value - before[i]!)).toEqual([1, 1, 1, 1]);
  }, 120_000);
});
