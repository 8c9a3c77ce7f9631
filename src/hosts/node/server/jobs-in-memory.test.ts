import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ErrorBody } from '../../../core/contract/errors';
import { sharedMedia } from '../../../../tools/testing/ffmpeg-fixtures';
import type { JobWebhookPayload } from '../job-runtime/job-webhook';
import { finished, jobClient, stageStoryProblems } from '../../../../tools/testing/jobs/job-client';
import { verifyWebhook } from '../webhook-signature';
import { curl } from '../../../../tools/testing/server/curl';
import { startReceiver } from '../../../../tools/testing/server/receiver';
import { startServe, type ServeProcess } from '../../../../tools/testing/server/serve-process';

const KEY = 'jobs-key';
const jfk = sharedMedia('speech/jfk.wav');
const long = sharedMedia('speech/multilingual.mp3');
const withKey = ['-H', `x-service-key: ${KEY}`];
const SECRET = `whsec_${Buffer.from('a key for the webhooks of this test').toString('base64')}`;

describe('async jobs on murmur serve, in memory', () => {
  let server: ServeProcess;
  let jobs: ReturnType<typeof jobClient>;

  beforeAll(async () => {
    server = await startServe(['--concurrency', '1', '--max-queued', '1', '--allow-private-urls'], {
      MURMUR_SERVICE_KEYS: KEY,
      MURMUR_WEBHOOK_SECRET: SECRET,
    });
    jobs = jobClient(server.url, withKey);
  }, 180_000);
  afterAll(async () => {
    expect(await server.stop()).toBe(0);
  });

  it('answers 202 with the id at once, then the transcript, the same as the synchronous answer', async () => {
    const answer = await jobs.submit([`audio=@${jfk}`, 'output_format=srt']);
    expect(answer.status).toBe(202);
    const { id, result_url } = answer.json() as { id: string; result_url: string };
    expect(result_url).toBe(`${server.url}/v2/transcription/${id}`);
    expect(answer.headers.location).toBe(result_url);
    const view = await jobs.until(id, finished, 'finished');
    expect(view).toMatchObject({ id, status: 'done', progress: 1, error: null });
    expect(Date.parse(view.finished_at!)).toBeGreaterThanOrEqual(Date.parse(view.created_at));
    expect(view.result!.prediction).toMatch(/^1\n00:00:\d\d,\d{3} --> /);
    const sync = await curl([
      ...withKey,
      '-F',
      `audio=@${jfk}`,
      '-F',
      'output_format=srt',
      `${server.url}/audio/text/audio-transcription/`,
    ]);
    expect(sync.status).toBe(200);
    expect(view.result!.prediction).toBe(sync.json().prediction);
    const line = server
      .logs()
      .find((l) => l.msg === 'job' && l.job_id === id && l.event === 'done');
    expect(line).toBeDefined();
  });

  it('shows the stage a job is in while it runs, none while it waits, and assemble once done', async () => {
    const first = (await jobs.submit([`audio=@${jfk}`])).json() as { id: string };
    const second = (await jobs.submit([`audio=@${jfk}`])).json() as { id: string };
    const stories = await Promise.all([jobs.story(first.id), jobs.story(second.id)]);
    for (const story of stories) {
      expect(stageStoryProblems(story)).toEqual([]);
      expect(story.some((v) => v.status === 'processing')).toBe(true);
      expect(story.at(-1)).toMatchObject({ status: 'done', stage: 'assemble', progress: 1 });
    }
  });

  it('shows a job that downloads its link as processing, in the download stage', async () => {
    // A media host that answers once told to: the job waits on its download meanwhile.
    let answer: () => void = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    const host = createServer((_, res) => {
      void held.then(() => {
        res.writeHead(200, { 'content-type': 'audio/wav' });
        res.end(readFileSync(jfk));
      });
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = host.address() as AddressInfo;
      const { id } = (
        await jobs.submit([`audio_url=http://127.0.0.1:${port}/talk.wav`])
      ).json() as { id: string };
      const downloading = await jobs.until(id, (v) => v.stage === 'download', 'downloading');
      expect(downloading).toMatchObject({ status: 'processing', stage: 'download' });
      // Counted among the jobs processing, not yet among the transcriptions holding an engine.
      const health = (await curl([`${server.url}/health`])).json() as {
        running: number;
        jobs: { queued: number; processing: number };
      };
      expect(health.jobs).toMatchObject({ queued: 0, processing: 1 });
      expect(health.running).toBe(0);
      answer();
      const view = await jobs.until(id, finished, 'finished');
      expect(view.status).toBe('done');
    } finally {
      answer();
      host.close();
    }
  });

  it('takes a video job on the same endpoint', async () => {
    const video = sharedMedia('video/echo-hereweare.first12s.derived.mp4');
    const { id } = (await jobs.submit([`video=@${video}`])).json() as { id: string };
    const view = await jobs.until(id, finished, 'finished');
    expect(view.status).toBe('done');
    expect(view.result!.prediction_raw.metadata.provided_file_metadata.original_file_type).toBe(
      'video',
    );
  });

  it('refuses a wrong request at once with the error body naming each field (422)', async () => {
    const answer = await jobs.submit([
      `audio=@${jfk}`,
      'language_behaviour=manual',
      'output_format=docx',
    ]);
    expect(answer.status).toBe(422);
    const body = answer.json() as unknown as ErrorBody;
    expect(body.path).toBe('/v2/transcription');
    expect(body.field_errors.map((p) => p.field).sort()).toEqual(['language', 'output_format']);
    const none = await jobs.submit(['output_format=srt']);
    expect((none.json() as unknown as ErrorBody).field_errors.map((p) => p.field)).toEqual([
      'audio',
    ]);
  });

  it('asks for the key on every async endpoint, and answers 404 for an unknown job', async () => {
    const anonymous = jobClient(server.url);
    expect((await anonymous.submit([`audio=@${jfk}`])).status).toBe(401);
    expect((await anonymous.get('some-id')).status).toBe(401);
    expect((await anonymous.cancel('some-id')).status).toBe(401);
    const unknown = await jobs.get('no-such-job');
    expect(unknown.status).toBe(404);
    expect(unknown.json()).toMatchObject({
      error: 'not_found',
      path: '/v2/transcription/no-such-job',
    });
  });

  it('cancels a running job, and refuses jobs past --max-queued with Retry-After (429)', async () => {
    const first = (await jobs.submit([`audio=@${long}`])).json() as { id: string };
    await jobs.until(first.id, (v) => v.status === 'processing', 'processing');
    const second = (await jobs.submit([`audio=@${long}`])).json() as { id: string };
    expect((await jobs.view(second.id)).status).toBe('queued');
    const full = await jobs.submit([`audio=@${jfk}`]);
    expect(full.status).toBe(429);
    expect(Number(full.headers['retry-after'])).toBeGreaterThan(0);
    expect(full.json()).toMatchObject({ error: 'too_many_requests' });

    const cancelled = await jobs.cancel(first.id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', error: { error: 'cancelled' } });
    // The queued one is cancelled before it runs.
    expect((await jobs.cancel(second.id)).json()).toMatchObject({ status: 'cancelled' });
    expect((await jobs.view(first.id)).result).toBeNull();
    const health = (await curl([`${server.url}/health`])).json();
    expect(health).toMatchObject({ status: 'ok', running: 0, jobs: { queued: 0, processing: 0 } });
  });

  it('describes the async endpoints in /openapi.json', async () => {
    const document = (await curl([`${server.url}/openapi.json`])).json();
    const paths = document.paths as Record<string, Record<string, unknown>>;
    expect(Object.keys(paths['/v2/transcription']!)).toEqual(['post']);
    expect(Object.keys(paths['/v2/transcription/{id}']!).sort()).toEqual(['delete', 'get']);
  });

  it('signs the transcription.success webhook, which a receiver verifies (and a tampered body fails)', async () => {
    const receiver = await startReceiver({ answers: [503, 200] });
    try {
      const { id } = (
        await jobs.submit([`audio=@${jfk}`, `webhook_url=${receiver.url}`])
      ).json() as {
        id: string;
      };
      const [first, retry] = await receiver.waitFor(2);
      const delivered = JSON.parse(retry!.body) as JobWebhookPayload;
      expect(delivered.type).toBe('transcription.success');
      expect(delivered.data).toMatchObject({ id, status: 'done' });
      expect(delivered.type === 'transcription.success' && delivered.data.result).toEqual(
        (await jobs.view(id)).result,
      );
      expect(verifyWebhook(SECRET, retry!.headers, retry!.body)).toBe(true);
      expect(verifyWebhook(SECRET, first!.headers, first!.body)).toBe(true);
      // One delivery: the same id on its retry, so that a receiver can drop a duplicate.
      expect(retry!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
      const tampered = retry!.body.replace('"status":"done"', '"status":"error"');
      expect(tampered).not.toBe(retry!.body);
      expect(verifyWebhook(SECRET, retry!.headers, tampered)).toBe(false);
    } finally {
      await receiver.close();
    }
  });

  it('sends transcription.error for a job that fails, and signs the synchronous webhook too', async () => {
    const receiver = await startReceiver();
    try {
      const text = sharedMedia('speech/LDC93S1.txt');
      const { id } = (
        await jobs.submit([`audio=@${text};type=text/plain`, `webhook_url=${receiver.url}`])
      ).json() as { id: string };
      const [hook] = await receiver.waitFor(1);
      const failed = JSON.parse(hook!.body) as JobWebhookPayload;
      expect(failed.type).toBe('transcription.error');
      const view = await jobs.view(id);
      expect(view.status).toBe('error');
      expect(failed.data).toMatchObject({ id, status: 'error', error: view.error });
      expect(['unsupported_media', 'undecodable_media']).toContain(view.error!.error);
      expect(verifyWebhook(SECRET, hook!.headers, hook!.body)).toBe(true);

      const sync = await curl([
        ...withKey,
        '-F',
        `audio=@${jfk}`,
        '-F',
        `webhook_url=${receiver.url}`,
        `${server.url}/audio/text/audio-transcription/`,
      ]);
      const [, v1] = await receiver.waitFor(2);
      const payload = JSON.parse(v1!.body) as Record<string, unknown>;
      expect(Object.keys(payload).sort()).toEqual(['payload', 'request_id']);
      expect(payload.request_id).toBe(sync.headers['x-request-id']);
      expect(verifyWebhook(SECRET, v1!.headers, v1!.body)).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('counts jobs, stage times and webhook outcomes on /metrics, for Prometheus', async () => {
    const answer = await curl([`${server.url}/metrics`]);
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const value = (series: string) => {
      const line = answer.body.split('\n').find((l) => l.startsWith(`${series} `));
      return line === undefined ? NaN : Number(line.slice(series.length + 1));
    };
    // Earlier tests: jobs done, one cancelled while running, one failed; webhooks delivered.
    expect(value('murmur_job_events_total{event="done"}')).toBeGreaterThanOrEqual(3);
    expect(value('murmur_job_events_total{event="cancelled"}')).toBeGreaterThanOrEqual(1);
    expect(value('murmur_job_events_total{event="error"}')).toBeGreaterThanOrEqual(1);
    expect(value('murmur_job_duration_seconds_count{status="done"}')).toBeGreaterThanOrEqual(3);
    expect(value('murmur_stage_duration_seconds_count{stage="inference"}')).toBeGreaterThanOrEqual(
      3,
    );
    expect(value('murmur_webhook_deliveries_total{outcome="delivered"}')).toBeGreaterThanOrEqual(3);
    expect(value('murmur_queue_depth')).toBe(0);
    expect(value('murmur_jobs{state="processing"}')).toBe(0);
    expect(value('murmur_queue_up')).toBe(1);
  });

  it('will not start with a webhook secret that is not whsec_ and base64', async () => {
    const refused = startServe([], { MURMUR_SERVICE_KEYS: KEY, MURMUR_WEBHOOK_SECRET: 'hunter2' });
    await expect(refused).rejects.toThrow(/exited \(2\).*MURMUR_WEBHOOK_SECRET.*whsec_/s);
  });
});
