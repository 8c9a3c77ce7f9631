import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedMedia } from '../ffmpeg-fixtures';
import { curl } from '../server/testing/curl';
import { startServe, type ServeProcess } from '../server/testing/serve-process';
import { QUEUE_NAME } from './redis-names';
import { finished, jobClient } from './testing/job-client';
import { startRedis } from './testing/redis-process';
import { startWorker, type WorkerProcess } from './testing/worker-process';

const KEY = 'queue-key';
const jfk = sharedMedia('speech/jfk.wav');
const short = sharedMedia('speech/LDC93S1.wav');
const long = sharedMedia('speech/multilingual.mp3');

/** Short enough that a dead worker's job is taken again within seconds, in a test. */
const QUICK_RECOVERY = ['--lock-seconds', '4', '--stalled-check-seconds', '2'];

describe('async jobs on a BullMQ queue in Redis, with murmur worker processes', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let store: string;
  let server: ServeProcess;
  let workers: WorkerProcess[] = [];
  let jobs: ReturnType<typeof jobClient>;
  const worker = () => startWorker(['--redis', redis.url, '--store', store, ...QUICK_RECOVERY]);
  /** The worker whose log says it took the job. */
  const takerOf = (id: string) =>
    workers.find((w) => w.logs().some((l) => l.job_id === id && l.event === 'processing'));

  beforeAll(async () => {
    redis = await startRedis();
    store = mkdtempSync(join(tmpdir(), 'murmur-store-'));
    [server, ...workers] = await Promise.all([
      startServe(['--redis', redis.url, '--store', store, '--max-queued', '8'], {
        MURMUR_SERVICE_KEYS: KEY,
      }),
      worker(),
      worker(),
    ]);
    jobs = jobClient(server.url, ['-H', `x-service-key: ${KEY}`]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([server?.stop(), ...workers.map((w) => w.stop())]);
    await redis?.remove();
    rmSync(store, { recursive: true, force: true });
  });

  it('says on /health that Redis answers, with the workers it has', async () => {
    const health = await curl([`${server.url}/health`]);
    expect(health.status).toBe(200);
    expect(health.json()).toMatchObject({
      status: 'ok',
      redis: { reachable: true },
      jobs: { store: 'redis', workers: 2 },
    });
  });

  it('runs six jobs over two workers, each done with its transcript', async () => {
    const files = [jfk, short, jfk, short, jfk, short];
    const ids: string[] = [];
    for (const file of files) {
      const answer = await jobs.submit([`audio=@${file}`, 'output_format=txt']);
      expect(answer.status).toBe(202);
      ids.push((answer.json() as { id: string }).id);
    }
    const views = await Promise.all(ids.map((id) => jobs.until(id, finished, 'finished', 60_000)));
    for (const view of views) {
      expect(view.status).toBe('done');
      expect(view.result!.prediction_raw.transcription.length).toBeGreaterThan(0);
    }
    // jfk's jobs all have the same transcript, and LDC93S1's theirs.
    expect(views[2]!.result!.prediction).toBe(views[0]!.result!.prediction);
    expect(views[3]!.result!.prediction).toBe(views[1]!.result!.prediction);
    expect(views[0]!.result!.prediction).not.toBe(views[1]!.result!.prediction);
    const takers = new Set(ids.map((id) => takerOf(id)?.pid));
    expect(takers).toEqual(new Set(workers.map((w) => w.pid)));
    // Each job's files are gone from the store once it is done.
    expect(readdirSync(join(store, 'jobs')).filter((name) => ids.includes(name))).toEqual([]);
  }, 90_000);

  it('gives the job of a worker killed with SIGKILL to the other, which finishes it', async () => {
    const { id } = (await jobs.submit([`audio=@${long}`])).json() as { id: string };
    await jobs.until(id, (v) => v.status === 'processing' && v.stage !== null, 'processing');
    const victim = takerOf(id)!;
    victim.child.kill('SIGKILL');
    await victim.exited;
    const survivor = workers.find((w) => w !== victim)!;
    const view = await jobs.until(id, finished, 'finished', 60_000);
    expect(view.status).toBe('done');
    expect(view.result!.prediction_raw.metadata.provided_file_metadata.duration).toBeCloseTo(60, 0);
    expect(survivor.logs().some((l) => l.job_id === id && l.event === 'done')).toBe(true);
    workers = [survivor, await worker()];
  }, 90_000);

  it('cancels a running job on its worker', async () => {
    const { id } = (await jobs.submit([`audio=@${long}`])).json() as { id: string };
    await jobs.until(id, (v) => v.status === 'processing', 'processing');
    const answer = await jobs.cancel(id);
    expect(answer.status).toBe(200);
    expect(answer.json()).toMatchObject({ status: 'cancelled', error: { error: 'cancelled' } });
    expect(
      takerOf(id)!
        .logs()
        .some((l) => l.job_id === id && l.event === 'cancelled'),
    ).toBe(true);
  }, 60_000);

  it('refuses jobs past --max-queued with Retry-After while no worker takes them', async () => {
    const queue = new Queue(QUEUE_NAME, { connection: { url: redis.url } });
    try {
      await queue.pause();
      const accepted = [];
      for (let i = 0; i < 8; i++) accepted.push(await jobs.submit([`audio=@${short}`]));
      expect(accepted.map((a) => a.status)).toEqual(Array(8).fill(202));
      const refused = await jobs.submit([`audio=@${short}`]);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json()).toMatchObject({
        error: 'too_many_requests',
        path: '/v2/transcription',
      });
      await queue.resume();
      for (const answer of accepted) {
        const id = (answer.json() as { id: string }).id;
        expect((await jobs.until(id, finished, 'finished', 60_000)).status).toBe('done');
      }
    } finally {
      await queue.resume();
      await queue.close();
    }
  }, 90_000);

  it('loses nothing queued when Redis restarts, and says on /health while it is away', async () => {
    const queue = new Queue(QUEUE_NAME, { connection: { url: redis.url } });
    await queue.pause();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await jobs.submit([`audio=@${short}`]);
      expect(answer.status).toBe(202);
      ids.push((answer.json() as { id: string }).id);
    }
    await queue.close();
    await redis.stop();
    const away = await curl([`${server.url}/health`]);
    expect(away.status).toBe(503);
    expect(away.json()).toMatchObject({ status: 'unavailable', redis: { reachable: false } });
    await redis.restart();
    const again = new Queue(QUEUE_NAME, { connection: { url: redis.url } });
    await again.resume();
    await again.close();
    for (const id of ids) {
      expect((await jobs.until(id, finished, 'finished', 60_000)).status).toBe('done');
    }
  }, 90_000);
});
