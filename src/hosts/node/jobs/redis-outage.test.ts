import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedMedia } from '../../../../tools/testing/ffmpeg-fixtures';
import { finished } from '../../../../tools/testing/jobs/job-client';
import { startQueueCluster } from '../../../../tools/testing/jobs/queue-cluster';

const jfk = sharedMedia('speech/jfk.wav');
const short = sharedMedia('speech/LDC93S1.wav');
/** Half a minute of speech: a job that is still running when Redis goes away. */
const long = sharedMedia('diarization/dev00.wav');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Redis away for longer than a job's lock (the cluster's workers hold a lock for 4 s): the lock
 * lapses while the worker that holds it goes on with the job.
 */
describe('a queue in Redis when Redis is away longer than the lock of a running job', () => {
  let cluster: Awaited<ReturnType<typeof startQueueCluster>>;

  beforeAll(async () => {
    cluster = await startQueueCluster({ workers: 2 });
  }, 120_000);
  afterAll(() => cluster?.stop());

  /** Submits each file as a job, and waits until the first is running. */
  async function submitAll(files: readonly string[]): Promise<string[]> {
    const ids: string[] = [];
    for (const file of files) {
      const answer = await cluster.jobs.submit([`audio=@${file}`]);
      expect(answer.status).toBe(202);
      ids.push((answer.json() as { id: string }).id);
    }
    await cluster.jobs.until(ids[0]!, (v) => v.status === 'processing' && v.stage !== null, 'run');
    return ids;
  }

  /** How many times workers took the job (its first run, and each time it was put back). */
  const takes = (id: string) =>
    cluster.workers.flatMap((w) =>
      w.logs().filter((l) => l.job_id === id && l.event === 'processing'),
    ).length;

  /** Every job ends done, with its transcript, and its files are gone from the store after. */
  async function expectAllDone(ids: readonly string[]) {
    for (const id of ids) {
      const view = await cluster.jobs.until(id, finished, 'finished', 120_000);
      expect(view.error).toBeNull();
      expect(view.status).toBe('done');
      expect(view.result!.prediction_raw.transcription.length).toBeGreaterThan(0);
    }
    for (const id of ids) {
      for (let tries = 0; existsSync(join(cluster.store, 'jobs', id)) && tries < 50; tries++) {
        await sleep(100);
      }
      expect(existsSync(join(cluster.store, 'jobs', id))).toBe(false);
    }
  }

  it('finishes every job when Redis is away 10 s, two and a half times the lock', async () => {
    const ids = await submitAll([long, jfk, short, short]);
    await cluster.redis.stop();
    await sleep(10_000);
    await cluster.redis.restart();
    await expectAllDone(ids);
    // The running jobs lost their locks and were put back on the queue.
    expect(takes(ids[0]!)).toBeGreaterThanOrEqual(2);
  }, 180_000);

  it('finishes a job whose run ends while Redis is away 45 s', async () => {
    const [id] = await submitAll([long]);
    await cluster.redis.stop();
    await sleep(45_000);
    await cluster.redis.restart();
    await expectAllDone([id!]);
    // Its end could not be recorded by the run that reached it; the run that took the job again
    // answered with it.
    expect(takes(id!)).toBeGreaterThanOrEqual(2);
    const ends = cluster.workers.flatMap((w) =>
      w.logs().filter((l) => l.job_id === id && l.event === 'done'),
    );
    expect(ends).toHaveLength(1);
  }, 240_000);
});
