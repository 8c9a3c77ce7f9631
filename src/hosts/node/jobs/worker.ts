import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { warmUp } from '../../../engine/warm-up';
import type { CliIo } from '../cli';
import { nodeEnginePorts } from '../engine-ports';
import { DecodedAudioAccount } from '../job-runtime/decoded-audio-account';
import { jobSettingsOf, operatorVoices } from '../job-runtime/job-args';
import { pageLinksLine, pageLinksOf } from '../job-runtime/linked-media';
import { VoicesOnDiskError } from '../job-runtime/voices-on-disk';
import type { JobSettings } from '../job-runtime/job-host';
import { JobMetrics } from '../job-runtime/job-metrics';
import type { JobEnd, JobEvent, QueuedJob } from '../job-runtime/job-queue';
import { WebhookSender } from '../job-runtime/webhook-sender';
import { signerFromEnv } from '../webhook-signature';
import { failureBody } from './redis-job-view';
import { connectionOf, QUEUE_NAME, reconnectAfter } from './redis-names';
import type { WorkerArgs } from './worker-args';
import { jobProcessor } from './worker-run';

const message = (thrown: unknown) => (thrown instanceof Error ? thrown.message : String(thrown));

/** One JSON line on stdout per job event, with the job's id, as the server logs requests. */
function logLine(io: CliIo, fields: Record<string, unknown>) {
  io.stdout(`${JSON.stringify({ time: Date.now(), pid: process.pid, ...fields })}\n`);
}

/** `GET /metrics` of a worker, on `HOST:PORT` (the worker has no other HTTP). */
function serveMetrics(metrics: JobMetrics, where: string): Promise<Server> {
  const colon = where.lastIndexOf(':');
  const host = where.slice(0, colon);
  const port = Number(where.slice(colon + 1));
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    void metrics.text().then((text) => {
      response.writeHead(200, { 'content-type': metrics.contentType }).end(text);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

/**
 * `murmur worker`: loads the models once, then takes jobs from the queue in Redis one at a time
 * and runs each through the Job every host uses, until SIGTERM or SIGINT (the job in hand is
 * finished first; a second signal ends at once, and the job goes to another worker).
 */
export async function runWorker(args: WorkerArgs, io: CliIo): Promise<number> {
  let signer: ReturnType<typeof signerFromEnv>;
  try {
    signer = signerFromEnv(process.env.MURMUR_WEBHOOK_SECRET);
  } catch (thrown) {
    io.stderr(`murmur worker: MURMUR_WEBHOOK_SECRET: ${message(thrown)}\n`);
    return 2;
  }
  try {
    await mkdir(join(args.store, 'jobs'), { recursive: true, mode: 0o700 });
  } catch (thrown) {
    io.stderr(`murmur worker: cannot use the store ${args.store}: ${message(thrown)}\n`);
    return 1;
  }
  let voices;
  try {
    voices = await operatorVoices(args);
  } catch (thrown) {
    if (!(thrown instanceof VoicesOnDiskError)) throw thrown;
    io.stderr(`murmur worker: ${thrown.message}\n`);
    return 2;
  }
  const engine = nodeEnginePorts({
    models: args.models,
    model: args.model,
    translationModel: args.translationModel,
    segmentationModel: args.segmentationModel,
    embeddingModel: args.embeddingModel,
    ffmpegThread: true,
  });
  io.stderr(`murmur worker: loading ${args.model} from ${args.models ?? 'the hub'}\n`);
  if (args.voices !== null) {
    const count = voices.length;
    io.stderr(
      `murmur worker: ${count} voice${count === 1 ? '' : 's'} from ${args.voices} name the speakers of every job with diarization on\n`,
    );
  }
  try {
    await warmUp(engine);
    await engine.recogniser({});
  } catch (thrown) {
    io.stderr(`murmur worker: the models could not be loaded: ${message(thrown)}\n`);
    return 1;
  }
  const pageLinks = await pageLinksOf(args.ytDlp);
  io.stderr(`murmur worker: ${pageLinksLine(pageLinks)}\n`);
  const settings: JobSettings = {
    ...jobSettingsOf(args, [engine], voices),
    pageLinks,
    decodedAudio: new DecodedAudioAccount(),
    ...(signer ? { webhook: { signer } } : {}),
  };
  const redis = new Redis(args.redis, {
    maxRetriesPerRequest: null,
    retryStrategy: reconnectAfter,
  });
  redis.on('error', () => undefined);
  const worker = new Worker<QueuedJob, JobEnd>(QUEUE_NAME, jobProcessor(settings, redis), {
    connection: connectionOf(args.redis, 'worker'),
    // One job at a time: the models already use every core for one transcription.
    concurrency: 1,
    lockDuration: args.lockSeconds * 1000,
    stalledInterval: args.stalledCheckSeconds * 1000,
    maxStalledCount: args.maxStalls,
    autorun: false,
  });
  const metrics = new JobMetrics();
  const webhooks = new WebhookSender(settings, (outcome) => metrics.webhook(outcome));
  settings.decodedAudio?.register(metrics.registry);
  /** A job event: its log line and its count. */
  const jobEvent = (job: Job<QueuedJob>, event: JobEvent['event'], extra = {}) => {
    metrics.jobEvent({ id: job.id ?? '', requestId: job.data.requestId, event });
    logLine(io, { msg: 'job', job_id: job.id, request_id: job.data.requestId, event, ...extra });
  };
  const ran = (job: Job<QueuedJob>) =>
    job.processedOn && job.finishedOn ? (job.finishedOn - job.processedOn) / 1000 : 0;
  /** Sends a finished job's webhook after its end is recorded; stopping waits for it. */
  const deliver = (job: Job<QueuedJob>, end: JobEnd) =>
    webhooks.jobEnd(job.data, end, {
      onDelivered: (outcome) =>
        logLine(io, {
          msg: 'webhook',
          job_id: job.id,
          request_id: job.data.requestId,
          webhook: outcome,
        }),
    });
  worker.on('active', (job) => jobEvent(job, 'processing', { attempt: job.attemptsMade + 1 }));
  // A job's files go only once its end is recorded in Redis: a run whose record is refused (its
  // lock lapsed while Redis was away) leaves them, with its end, to the run that comes next.
  const removeFiles = (job: Job<QueuedJob>) =>
    void rm(job.data.folder, { recursive: true, force: true });
  worker.on('completed', (job, stored) => {
    jobEvent(job, stored.status);
    metrics.jobEnded(stored.status, ran(job), stored.status === 'done' ? stored.result : undefined);
    deliver(job, stored);
    removeFiles(job);
  });
  worker.on('failed', (job, error) => {
    if (!job) return;
    // Its last attempt, or a worker that died under it too often: the job has ended in error.
    const final = job.attemptsMade >= (job.opts.attempts ?? 1) || /stalled/.test(error.message);
    jobEvent(job, final ? 'error' : 'retrying', { message: error.message });
    if (!final) return;
    metrics.jobEnded('error', ran(job));
    deliver(job, { status: 'error', error: failureBody(job, error.message) });
    removeFiles(job);
  });
  // BullMQ tries to renew a lost lock on every round; one line per job says it.
  const lost = new Set<string>();
  worker.on('lockRenewalFailed', (ids) => {
    for (const id of ids.filter((i) => !lost.has(i))) {
      if (lost.size > 100) lost.clear();
      lost.add(id);
      logLine(io, { msg: 'job lock lost', job_id: id });
    }
  });
  worker.on('error', (error) => logLine(io, { msg: 'worker error', error: message(error) }));

  const stopped = new Promise<string>((resolve) => {
    const first = (signal: string) => {
      process.once('SIGTERM', () => process.exit(1));
      process.once('SIGINT', () => process.exit(1));
      io.stderr(`murmur worker: ${signal}: finishing the job in hand (again to stop now)\n`);
      resolve(signal);
    };
    process.once('SIGTERM', first);
    process.once('SIGINT', first);
  });
  let metricsServer: Server | null = null;
  if (args.metrics !== null) {
    try {
      metricsServer = await serveMetrics(metrics, args.metrics);
      const { address, port } = metricsServer.address() as AddressInfo;
      io.stderr(`murmur worker: metrics at http://${address}:${port}/metrics\n`);
    } catch (thrown) {
      io.stderr(`murmur worker: cannot serve metrics on ${args.metrics}: ${message(thrown)}\n`);
      return 1;
    }
  }
  void worker.run();
  await worker.waitUntilReady();
  io.stderr(
    `murmur worker: taking jobs from ${new URL(args.redis).host}, files in ${args.store}\n`,
  );
  await stopped;
  await worker.close();
  await webhooks.settled();
  redis.disconnect();
  metricsServer?.close();
  io.stderr('murmur worker: stopped\n');
  return 0;
}
