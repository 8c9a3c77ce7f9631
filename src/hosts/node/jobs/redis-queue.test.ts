import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedMedia } from '../../../../tools/testing/ffmpeg-fixtures';
import { curl, type CurlAnswer } from '../../../../tools/testing/server/curl';
import { deadUrl, startReceiver } from '../../../../tools/testing/server/receiver';
import { verifyWebhook } from '../webhook-signature';
import type { JobWebhookPayload } from '../job-runtime/job-webhook';
import { QUEUE_NAME } from './redis-names';
import { startServe } from '../../../../tools/testing/server/serve-process';
import { finished, jobClient, stageStoryProblems } from '../../../../tools/testing/jobs/job-client';
import { startQueueCluster } from '../../../../tools/testing/jobs/queue-cluster';
import { until } from '../../../../tools/testing/until';

const jfk = sharedMedia('speech/jfk.wav');
const short = sharedMedia('speech/LDC93S1.wav');
const long = sharedMedia('speech/multilingual.mp3');

/** One series' value in a Prometheus scrape. */
function metric(answer: CurlAnswer, series: string): number {
  const line = answer.body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? NaN : Number(line.slice(series.length + 1));
}

describe('async jobs on a BullMQ queue in Redis, with murmur worker processes', () => {
  let cluster: Awaited<ReturnType<typeof startQueueCluster>>;

  beforeAll(async () => {
    cluster = await startQueueCluster({ workers: 2, serve: ['--max-queued', '8'] });
  }, 120_000);
  afterAll(() => cluster?.stop());

  it('says on /health that Redis answers, with the workers it has', async () => {
    const health = await curl([`${cluster.server.url}/health`]);
    expect(health.status).toBe(200);
    expect(health.json()).toMatchObject({
      status: 'ok',
      redis: { reachable: true },
      jobs: { store: 'redis', workers: 2 },
    });
  });

  it('runs ten jobs over two workers, each done with its transcript', async () => {
    const { jobs } = cluster;
    const files = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? jfk : short));
    const ids: string[] = [];
    for (const file of files) {
      const answer = await jobs.submit([`audio=@${file}`, 'output_format=txt']);
      expect(answer.status).toBe(202);
      ids.push((answer.json() as { id: string }).id);
    }
    const views = await Promise.all(ids.map((id) => jobs.until(id, finished, 'finished', 150_000)));
    for (const view of views) {
      expect(view.status).toBe('done');
      expect(view.result!.prediction_raw.transcription.length).toBeGreaterThan(0);
    }
    // jfk's jobs all have the same transcript, and LDC93S1's theirs.
    expect(views[2]!.result!.prediction).toBe(views[0]!.result!.prediction);
    expect(views[3]!.result!.prediction).toBe(views[1]!.result!.prediction);
    expect(views[0]!.result!.prediction).not.toBe(views[1]!.result!.prediction);
    const takers = new Set(ids.map((id) => cluster.takerOf(id)?.pid));
    expect(takers).toEqual(new Set(cluster.workers.map((w) => w.pid)));
    // Each worker counts what it ran; the server, what the queue holds.
    const done = await Promise.all(
      cluster.workers.map(async (w) =>
        metric(await curl([w.metricsUrl!]), 'murmur_job_events_total{event="done"}'),
      ),
    );
    expect(done.reduce((a, b) => a + b, 0)).toBe(10);
    expect(done.every((n) => n > 0)).toBe(true);
    const served = await curl([`${cluster.server.url}/metrics`]);
    expect(metric(served, 'murmur_queue_up')).toBe(1);
    expect(metric(served, 'murmur_queue_depth')).toBe(0);
    expect(metric(served, 'murmur_job_events_total{event="queued"}')).toBe(10);
    // Each job's files are gone from the store once it is done.
    const left = readdirSync(join(cluster.store, 'jobs')).filter((name) => ids.includes(name));
    expect(left).toEqual([]);
  }, 180_000);

  it('shows the stage a job is in while it runs, none while it waits, and assemble once done', async () => {
    const first = (await cluster.jobs.submit([`audio=@${jfk}`])).json() as { id: string };
    const second = (await cluster.jobs.submit([`audio=@${jfk}`])).json() as { id: string };
    const stories = await Promise.all([
      cluster.jobs.story(first.id),
      cluster.jobs.story(second.id),
    ]);
    for (const story of stories) {
      expect(stageStoryProblems(story)).toEqual([]);
      expect(story.some((v) => v.status === 'processing')).toBe(true);
      expect(story.at(-1)).toMatchObject({ status: 'done', stage: 'assemble', progress: 1 });
    }
  });

  it("delivers a job's signed transcription.success webhook from its worker", async () => {
    const receiver = await startReceiver();
    try {
      const answer = await cluster.jobs.submit([`audio=@${short}`, `webhook_url=${receiver.url}`]);
      const { id } = answer.json() as { id: string };
      const [hook] = await receiver.waitFor(1);
      expect(verifyWebhook(cluster.secret, hook!.headers, hook!.body)).toBe(true);
      const payload = JSON.parse(hook!.body) as JobWebhookPayload;
      expect(payload).toMatchObject({
        type: 'transcription.success',
        data: { id, status: 'done' },
      });
      expect(payload.type === 'transcription.success' && payload.data.result).toEqual(
        (await cluster.jobs.view(id)).result,
      );
    } finally {
      await receiver.close();
    }
  });

  it('tries a failure of ours again, --attempts times in all, then ends the job with its error body', async () => {
    // Nothing listens there: the download fails as a media host that is down would (502).
    const { id } = (await cluster.jobs.submit([`audio_url=${await deadUrl()}`])).json() as {
      id: string;
    };
    const view = await cluster.jobs.until(id, finished, 'finished');
    expect(view.status).toBe('error');
    expect(view.error).toMatchObject({ error: 'url_fetch_failed', statusCode: 502 });
    const retries = cluster.workers.flatMap((w) =>
      w.logs().filter((l) => l.job_id === id && l.event === 'retrying'),
    );
    expect(retries).toHaveLength(2);
    expect(cluster.ended(id, 'error')).toBe(true);
  }, 30_000);

  it('cancels a running job on its worker', async () => {
    const { jobs } = cluster;
    const { id } = (await jobs.submit([`audio=@${long}`])).json() as { id: string };
    await jobs.until(id, (v) => v.status === 'processing', 'processing');
    const answer = await jobs.cancel(id);
    expect(answer.status).toBe(200);
    expect(answer.json()).toMatchObject({ status: 'cancelled', error: { error: 'cancelled' } });
    // The answer is the queue's record; the worker hears of it and stops its run after it (at
    // once on an idle machine, later on a loaded one), and logs that it did.
    await until(() => cluster.ended(id, 'cancelled'), 'the worker to stop the cancelled job');
  }, 60_000);

  it('refuses jobs past --max-queued with Retry-After, and cancels queued jobs', async () => {
    const { jobs } = cluster;
    const queue = new Queue(QUEUE_NAME, { connection: { url: cluster.redis.url } });
    try {
      // No worker takes a job meanwhile: the queue fills.
      await queue.pause();
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) {
        const answer = await jobs.submit([`audio=@${short}`]);
        expect(answer.status).toBe(202);
        ids.push((answer.json() as { id: string }).id);
      }
      const refused = await jobs.submit([`audio=@${short}`]);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json()).toMatchObject({
        error: 'too_many_requests',
        path: '/v2/transcription',
      });
      for (const id of ids) {
        expect((await jobs.cancel(id)).json()).toMatchObject({ status: 'cancelled' });
      }
      await queue.resume();
      // The workers take the cancelled jobs and end them without running them.
      const end = Date.now() + 30_000;
      while (!ids.every((id) => cluster.ended(id, 'cancelled')) && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(ids.filter((id) => !cluster.ended(id, 'cancelled'))).toEqual([]);
      for (const id of ids) expect((await jobs.view(id)).result).toBeNull();
    } finally {
      await queue.resume();
      await queue.close();
    }
  }, 60_000);

  it('forgets a result once kept --keep-results-hours, on a second server of the same queue', async () => {
    // 0.0005 hours: 1.8 s.
    const other = await startServe(
      ['--redis', cluster.redis.url, '--store', cluster.store, '--keep-results-hours', '0.0005'],
      { MURMUR_SERVICE_KEYS: 'queue-key' },
    );
    try {
      const jobs = jobClient(other.url, ['-H', 'x-service-key: queue-key']);
      const { id } = (await jobs.submit([`audio=@${short}`])).json() as { id: string };
      expect((await jobs.until(id, finished, 'finished')).status).toBe('done');
      // Any server answers for any job: the first one sees it too.
      expect((await cluster.jobs.view(id)).status).toBe('done');
      const end = Date.now() + 20_000;
      while ((await jobs.get(id)).status === 200 && Date.now() < end) {
        await new Promise((r) => setTimeout(r, 200));
      }
      expect((await jobs.get(id)).json()).toMatchObject({ error: 'not_found' });
    } finally {
      await other.stop();
    }
  }, 60_000);

  it('lets a worker asked to stop (SIGTERM) finish the job in hand, then exit 0', async () => {
    const { jobs } = cluster;
    const { id } = (await jobs.submit([`audio=@${jfk}`])).json() as { id: string };
    await jobs.until(id, (v) => v.status === 'processing', 'processing');
    const taker = cluster.takerOf(id)!;
    taker.child.kill('SIGTERM');
    expect(await taker.exited).toBe(0);
    expect(taker.logs().some((l) => l.job_id === id && l.event === 'done')).toBe(true);
    expect((await jobs.view(id)).status).toBe('done');
    cluster.workers = cluster.workers.filter((w) => w !== taker);
  }, 30_000);
});
