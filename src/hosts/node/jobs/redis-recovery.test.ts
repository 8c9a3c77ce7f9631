import { until } from '../../../../tools/testing/until';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedMedia } from '../../../../tools/testing/ffmpeg-fixtures';
import { curl } from '../../../../tools/testing/server/curl';
import { startReceiver } from '../../../../tools/testing/server/receiver';
import { verifyWebhook } from '../webhook-signature';
import { finished } from '../../../../tools/testing/jobs/job-client';
import { startQueueCluster } from '../../../../tools/testing/jobs/queue-cluster';

const jfk = sharedMedia('speech/jfk.wav');
const short = sharedMedia('speech/LDC93S1.wav');
/** Half a minute of speech: a job long enough to be killed in the middle of. */
const long = sharedMedia('diarization/dev00.wav');

describe('a queue in Redis when a worker or Redis itself goes away', () => {
  let cluster: Awaited<ReturnType<typeof startQueueCluster>>;

  beforeAll(async () => {
    cluster = await startQueueCluster({ workers: 2 });
  }, 120_000);
  afterAll(() => cluster?.stop());

  it('gives the job of a worker killed with SIGKILL to the other, which finishes it', async () => {
    const { jobs } = cluster;
    const { id } = (await jobs.submit([`audio=@${long}`])).json() as { id: string };
    await jobs.until(id, (v) => v.status === 'processing' && v.stage !== null, 'processing');
    const victim = cluster.takerOf(id)!;
    victim.child.kill('SIGKILL');
    await victim.exited;
    const survivor = cluster.workers.find((w) => w !== victim)!;
    cluster.workers = [survivor];
    const view = await jobs.until(id, finished, 'finished', 60_000);
    expect(view.status).toBe('done');
    const metadata = view.result!.prediction_raw.metadata;
    expect(metadata.provided_file_metadata.duration).toBeCloseTo(30, 0);
    expect(cluster.ended(id, 'done')).toBe(true);
  }, 60_000);

  it('loses nothing when Redis restarts mid-run, and says on /health while it is away', async () => {
    const { jobs, redis } = cluster;
    const ids: string[] = [];
    for (const file of [jfk, short, short]) {
      const answer = await jobs.submit([`audio=@${file}`]);
      expect(answer.status).toBe(202);
      ids.push((answer.json() as { id: string }).id);
    }
    await jobs.until(ids[0]!, (v) => v.status === 'processing', 'processing');
    await redis.stop();
    const away = await curl([`${cluster.server.url}/health`]);
    expect(away.status).toBe(503);
    expect(away.json()).toMatchObject({ status: 'unavailable', redis: { reachable: false } });
    const refused = await jobs.get(ids[1]!);
    expect(refused.status).toBe(503);
    expect((refused.json() as { message: string }).message).toBe(
      'The job queue (Redis) is not reachable just now; try again in a few seconds.',
    );
    await redis.restart();
    // Back within a few seconds of Redis (its tries are a second apart at most), not 20.
    await until(
      async () => (await jobs.get(ids[1]!)).status === 200,
      'Redis to be used again',
      5000,
    );
    for (const id of ids) {
      expect((await jobs.until(id, finished, 'finished', 60_000)).status).toBe('done');
    }
  }, 60_000);

  it('ends a job in error, saying why, once its workers have died under it too often', async () => {
    const { jobs } = cluster;
    await Promise.all(cluster.workers.map((w) => w.stop()));
    // No second chance: the first worker that dies under a job ends it.
    cluster.workers = [];
    await cluster.addWorkers(2, ['--max-stalls', '0']);
    const receiver = await startReceiver();
    const answer = await jobs.submit([`audio=@${long}`, `webhook_url=${receiver.url}`]);
    const { id } = answer.json() as { id: string };
    await jobs.until(id, (v) => v.status === 'processing' && v.stage !== null, 'processing');
    const victim = cluster.takerOf(id)!;
    victim.child.kill('SIGKILL');
    await victim.exited;
    const view = await jobs.until(id, finished, 'finished', 30_000);
    expect(view.status).toBe('error');
    expect(view.error).toMatchObject({ error: 'internal_error', path: '/v2/transcription' });
    expect(view.error!.message).toBe(
      "The job's worker stopped while running it (it died or lost Redis for too long), 1 time, more often than the workers allow (--max-stalls): the job was given up.",
    );
    expect(cluster.ended(id, 'error')).toBe(true);
    // The worker that found the job dead sends its error webhook, signed.
    const [hook] = await receiver.waitFor(1);
    await receiver.close();
    expect(verifyWebhook(cluster.secret, hook!.headers, hook!.body)).toBe(true);
    expect(JSON.parse(hook!.body)).toMatchObject({
      type: 'transcription.error',
      data: { id, status: 'error', error: view.error },
    });
  }, 60_000);
});
