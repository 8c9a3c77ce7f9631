import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../../core/contract/endpoints';
import type { ErrorBody } from '../../../core/contract/errors';
import type { TranscriptionResponse } from '../../../core/contract/response';
import type { WebhookPayload } from '../../../core/webhook/payload';
import { sharedMedia } from '../../../../tools/testing/ffmpeg-fixtures';
import { curl, type CurlAnswer } from '../../../../tools/testing/server/curl';
import { startReceiver } from '../../../../tools/testing/server/receiver';
import { QUEUE_NAME } from './redis-names';
import { startQueueCluster } from '../../../../tools/testing/jobs/queue-cluster';
import { until } from '../../../../tools/testing/until';

const jfk = sharedMedia('speech/jfk.wav');
const short = sharedMedia('speech/LDC93S1.wav');
const long = sharedMedia('speech/multilingual.mp3');
const AUDIO: string = ENDPOINTS.audio.path;
const withKey = ['-H', 'x-service-key: queue-key'];

/** One series' value in a Prometheus scrape. */
function metric(answer: CurlAnswer, series: string): number {
  const line = answer.body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? NaN : Number(line.slice(series.length + 1));
}

describe('the synchronous endpoints of murmur serve --redis, answered by a worker', () => {
  let cluster: Awaited<ReturnType<typeof startQueueCluster>>;
  const post = (form: string[], extra: string[] = []) =>
    curl([
      ...withKey,
      ...extra,
      ...form.flatMap((f) => ['-F', f]),
      `${cluster.server.url}${AUDIO}`,
    ]);
  /** The job the server queued for a request, from its log. */
  const jobOf = (requestId: string) =>
    cluster.server
      .logs()
      .find((l) => l.msg === 'job' && l.event === 'queued' && l.request_id === requestId)
      ?.job_id as string | undefined;

  beforeAll(async () => {
    cluster = await startQueueCluster({ workers: 1, serve: ['--max-queued', '2'] });
  }, 120_000);
  afterAll(() => cluster?.stop());

  it('loads no models of its own', () => {
    expect(cluster.server.stderr()).not.toMatch(/loading/);
  });

  it("answers an upload with the transcript of the worker's job", async () => {
    const answer = await post([`audio=@${jfk}`, 'output_format=srt']);
    expect(answer.status).toBe(200);
    const requestId = answer.headers['x-request-id']!;
    expect(requestId).toMatch(/^M-[0-9a-f]{8}$/);
    const body = answer.json() as unknown as TranscriptionResponse;
    expect(body.prediction).toMatch(/^1\n\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}\n /);
    expect(body.prediction_raw.transcription.length).toBeGreaterThan(0);
    expect(body.prediction_raw.metadata.provided_file_metadata.original_file_type).toBe('audio');
    // The worker took the request's job and counted it done.
    const [worker] = cluster.workers;
    // The worker's log comes through its own pipe, which may lag behind the server's answer.
    const ofRequest = () => worker!.logs().filter((l) => l.request_id === requestId);
    await until(() => ofRequest().some((l) => l.event === 'done'), "the worker's done line");
    const taken = ofRequest();
    expect(taken.map((l) => l.event)).toEqual(['processing', 'done']);
    expect(taken[0]!.job_id).toBe(jobOf(requestId));
    const scraped = await curl([worker!.metricsUrl!]);
    expect(metric(scraped, 'murmur_job_events_total{event="done"}')).toBeGreaterThanOrEqual(1);
    // The decoded audio its run held was counted, and let go before the answer.
    expect(metric(scraped, 'murmur_decoded_audio_peak_bytes_sum')).toBeGreaterThan(0);
    expect(metric(scraped, 'murmur_decoded_audio_bytes')).toBe(0);
    // The same media as an async job has the same transcript.
    const job = await cluster.jobs.submit([`audio=@${jfk}`, 'output_format=srt']);
    const { id } = job.json() as { id: string };
    const view = await cluster.jobs.until(id, (v) => v.status === 'done', 'done');
    expect(view.result!.prediction).toBe(body.prediction);
    // Its result went out in the answer: the queue keeps nothing of it.
    expect((await cluster.jobs.get(jobOf(requestId)!)).status).toBe(404);
  }, 60_000);

  it('refuses a wrong request at once with the error body, queueing nothing', async () => {
    const started = Date.now();
    const answer = await post([`audio=@${short}`, 'output_format=docx']);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(answer.status).toBe(422);
    const body = answer.json() as unknown as ErrorBody;
    expect(body).toMatchObject({ statusCode: 422, error: 'invalid_request', path: AUDIO });
    expect(body.request_id).toBe(answer.headers['x-request-id']);
    expect(body.field_errors.map((f) => f.field)).toContain('output_format');
    expect(jobOf(body.request_id)).toBeUndefined();
  });

  it("delivers the synchronous endpoints' webhook payload after the answer", async () => {
    const receiver = await startReceiver();
    try {
      const answer = await post([
        `audio=@${short}`,
        'output_format=vtt',
        `webhook_url=${receiver.url}`,
      ]);
      expect(answer.status).toBe(200);
      const [hook] = await receiver.waitFor(1);
      const delivered = JSON.parse(hook!.body) as WebhookPayload;
      expect(delivered.request_id).toBe(answer.headers['x-request-id']);
      expect(delivered.payload).toEqual(answer.json());
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it('cancels the job of a client that goes away', async () => {
    const gone = curl([
      ...withKey,
      '-F',
      `audio=@${long}`,
      '--max-time',
      '2',
      `${cluster.server.url}${AUDIO}`,
    ]);
    await expect(gone).rejects.toThrow(/curl/);
    const line = cluster.server
      .logs()
      .filter((l) => l.msg === 'job' && l.event === 'queued')
      .at(-1);
    const id = line!.job_id as string;
    await until(() => cluster.ended(id, 'cancelled'), 'the job to be cancelled');
    expect(cluster.ended(id, 'done')).toBe(false);
  }, 60_000);

  it('refuses a request past --max-queued with Retry-After and the error body', async () => {
    const queue = new Queue(QUEUE_NAME, { connection: { url: cluster.redis.url } });
    const ids: string[] = [];
    try {
      // No worker takes a job meanwhile: the queue fills.
      await queue.pause();
      for (let i = 0; i < 2; i++) {
        const answer = await cluster.jobs.submit([`audio=@${short}`]);
        expect(answer.status).toBe(202);
        ids.push((answer.json() as { id: string }).id);
      }
      const refused = await post([`audio=@${short}`]);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json()).toMatchObject({
        statusCode: 429,
        error: 'too_many_requests',
        path: AUDIO,
        request_id: refused.headers['x-request-id'],
      });
    } finally {
      for (const id of ids) await cluster.jobs.cancel(id);
      await queue.resume();
      await queue.close();
    }
  }, 60_000);
});
