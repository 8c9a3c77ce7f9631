import { Queue, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import {
  ServiceError,
  errorBody,
  thrownMessage,
  type ErrorBody,
} from '../../../core/contract/errors';
import { STAGES, type Stage } from '../../../core/stages';
import {
  JOBS_PATH,
  QueueFullError,
  type JobEvent,
  type JobQueue,
  type JobView,
  type QueueHealth,
  type QueuedJob,
} from './job-queue';
import { cancelKey, connectionOf, QUEUE_NAME } from './redis-names';
import type { StoredResult } from './worker-run';

/** What a worker reports while it runs a job (BullMQ's progress, which may be any JSON). */
export interface StoredProgress {
  stage: Stage | null;
  progress: number | null;
  /** The job's start (BullMQ's `attemptsStarted`) the report is from. */
  run?: number;
}

export interface RedisQueueOptions {
  url: string;
  maxQueued: number;
  keepResultsHours: number;
  /** Runs of a job (a failure of ours, or a worker that died) before it ends in error. */
  attempts: number;
}

const QUEUED_STATES = new Set(['waiting', 'wait', 'delayed', 'prioritized', 'waiting-children']);

function stageOf(progress: unknown): StoredProgress {
  const value = progress as Partial<StoredProgress> | null;
  const stage = STAGES.includes(value?.stage as Stage) ? (value!.stage as Stage) : null;
  return {
    stage,
    progress: typeof value?.progress === 'number' ? value.progress : null,
    ...(typeof value?.run === 'number' ? { run: value.run } : {}),
  };
}

/**
 * The stage a job's view shows, as the in-memory queue shows it: none while it waits; while a
 * worker runs it, the stage the run is in (`validate` until the run's first report arrives, a
 * report of an earlier run being stale); once it has ended, the stage its run ended in.
 */
function viewStage(
  state: string,
  job: Job<QueuedJob, StoredResult>,
): Pick<JobView, 'stage' | 'progress'> {
  const reported = stageOf(job.progress);
  if (state === 'completed' && job.returnvalue) {
    const stored = job.returnvalue;
    if (stored.status === 'done') return { stage: stored.stage ?? reported.stage, progress: 1 };
    if (stored.stage !== undefined)
      return { stage: stored.stage, progress: stored.progress ?? null };
    return { stage: reported.stage, progress: reported.progress };
  }
  if (state === 'active') {
    const current = reported.run === undefined || reported.run === job.attemptsStarted;
    return current && reported.stage !== null
      ? { stage: reported.stage, progress: reported.progress }
      : { stage: 'validate', progress: null };
  }
  if (state === 'failed') return { stage: reported.stage, progress: reported.progress };
  return { stage: null, progress: null };
}

/** The error body of a job BullMQ gave up on (every attempt failed, or its workers died). */
export function failureBody(job: Job<QueuedJob>): ErrorBody {
  const reason = job.failedReason ?? 'unknown';
  try {
    // A worker that gave up on an attempt threw the attempt's error body as its message.
    const body = JSON.parse(reason) as ErrorBody;
    if (typeof body.statusCode === 'number') return body;
  } catch {
    // Not ours: BullMQ's own reason, such as a job whose workers stopped too often.
  }
  const stalled = /stalled/.test(reason);
  const message = stalled
    ? `The job's worker stopped while running it, too many times (${reason}).`
    : `The job failed ${job.attemptsMade} time${job.attemptsMade === 1 ? '' : 's'}: ${reason}`;
  return errorBody(new ServiceError('internal_error', message), {
    path: JOBS_PATH,
    requestId: job.data.requestId,
    now: new Date(job.finishedOn ?? Date.now()),
  });
}

/**
 * Jobs on a BullMQ queue in Redis: any number of servers put jobs on it, any number of workers
 * (`murmur worker`, on any machine) take them, and any server answers for any job, since the
 * state, progress and result live in Redis. Redis with its append-only file keeps what is queued
 * across a restart.
 */
export class RedisJobQueue implements JobQueue {
  private readonly queue: Queue<QueuedJob, StoredResult>;
  private readonly redis: Redis;
  private readonly listeners: ((event: JobEvent) => void)[] = [];

  constructor(private readonly options: RedisQueueOptions) {
    const connection = connectionOf(options.url, 'server');
    this.queue = new Queue(QUEUE_NAME, { connection });
    this.redis = new Redis(options.url, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
    // Without listeners, a Redis that goes away is an unhandled error that ends the process;
    // here it is what /health reports and what submit answers 503 for.
    this.queue.on('error', () => undefined);
    this.redis.on('error', () => undefined);
  }

  onEvent(listener: (event: JobEvent) => void): void {
    this.listeners.push(listener);
  }

  private unavailable(thrown: unknown): ServiceError {
    const detail = thrownMessage(thrown);
    return new ServiceError(
      'engine_unavailable',
      `The job queue (Redis) is not reachable: ${detail}`,
    );
  }

  async submit(job: QueuedJob): Promise<void> {
    try {
      const counts = await this.queue.getJobCounts('waiting', 'prioritized', 'delayed');
      const queued = (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.delayed ?? 0);
      if (queued >= this.options.maxQueued)
        throw new QueueFullError(queued, await this.retryAfter(queued));
      const keepSeconds = Math.ceil(this.options.keepResultsHours * 3600);
      await this.queue.add('transcription', job, {
        jobId: job.id,
        attempts: this.options.attempts,
        backoff: { type: 'fixed', delay: 1000 },
        removeOnComplete: { age: keepSeconds },
        removeOnFail: { age: keepSeconds },
      });
    } catch (thrown) {
      if (thrown instanceof ServiceError) throw thrown;
      throw this.unavailable(thrown);
    }
    for (const listener of this.listeners) {
      listener({ id: job.id, requestId: job.requestId, event: 'queued' });
    }
  }

  /** The wait for a queue that is full: the jobs ahead, over the workers, at the recent mean. */
  private async retryAfter(queued: number): Promise<number> {
    const [workers, recent] = await Promise.all([
      this.queue.getWorkersCount(),
      this.queue.getJobs(['completed'], 0, 19),
    ]);
    const times = recent
      .filter((j) => j.processedOn && j.finishedOn)
      .map((j) => (j.finishedOn! - j.processedOn!) / 1000);
    const mean = times.length > 0 ? times.reduce((a, b) => a + b, 0) / times.length : 10;
    return Math.max(1, Math.ceil((mean * (queued + 1)) / Math.max(1, workers)));
  }

  async get(id: string): Promise<JobView | null> {
    let job: Job<QueuedJob, StoredResult> | undefined;
    let cancelledAt: string | null;
    let state: string;
    try {
      job = await this.queue.getJob(id);
      if (!job) return null;
      [state, cancelledAt] = await Promise.all([job.getState(), this.redis.get(cancelKey(id))]);
    } catch (thrown) {
      throw this.unavailable(thrown);
    }
    // BullMQ removes old results only as later jobs finish: one past its time is gone already.
    const keepMs = this.options.keepResultsHours * 3600 * 1000;
    if (job.finishedOn && job.finishedOn + keepMs <= Date.now()) return null;
    const { stage, progress } = viewStage(state, job);
    const view: JobView = {
      id,
      status: 'queued',
      stage,
      progress,
      created_at: job.data.createdAt,
      finished_at: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
      result: null,
      error: null,
    };
    if (state === 'completed' && job.returnvalue) {
      const stored = job.returnvalue;
      view.status = stored.status;
      if (stored.status === 'done') {
        view.result = stored.result;
      } else {
        view.error = stored.error;
      }
    } else if (state === 'failed') {
      view.status = 'error';
      view.error = failureBody(job);
    } else if (state === 'active') {
      view.status = 'processing';
    } else if (QUEUED_STATES.has(state) && cancelledAt !== null) {
      // Cancelled before a worker took it: the worker that takes it ends it at once.
      view.status = 'cancelled';
      view.finished_at = cancelledAt;
      view.error = errorBody(
        new ServiceError('cancelled', 'The job was cancelled (DELETE /v2/transcription/<id>).'),
        { path: JOBS_PATH, requestId: job.data.requestId, now: new Date(cancelledAt) },
      );
    }
    return view;
  }

  async cancel(id: string): Promise<JobView | null> {
    const view = await this.get(id);
    if (view === null || view.finished_at !== null) return view;
    const keepSeconds = Math.ceil(this.options.keepResultsHours * 3600);
    try {
      await this.redis.set(cancelKey(id), new Date().toISOString(), 'EX', keepSeconds, 'NX');
    } catch (thrown) {
      throw this.unavailable(thrown);
    }
    // A running job stops at its worker's next look (a fraction of a second); wait for it.
    const end = Date.now() + 10_000;
    for (;;) {
      const now = await this.get(id);
      if (now === null || now.finished_at !== null || Date.now() > end) return now;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async forget(id: string): Promise<void> {
    try {
      await this.queue.remove(id);
      await this.redis.del(cancelKey(id));
    } catch (thrown) {
      throw this.unavailable(thrown);
    }
  }

  async health(): Promise<QueueHealth> {
    const url = new URL(this.options.url);
    const where = `${url.hostname}:${url.port || 6379}`;
    try {
      await Promise.race([
        this.redis.ping(),
        new Promise((_, reject) =>
          setTimeout(() => reject(new Error('no answer in 2 s')), 2000).unref(),
        ),
      ]);
      const counts = await this.queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active');
      const workers = await this.queue.getWorkersCount();
      return {
        ok: true,
        detail: {
          redis: { reachable: true, address: where },
          jobs: {
            store: 'redis',
            queued: (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.delayed ?? 0),
            processing: counts.active ?? 0,
            workers,
            max_queued: this.options.maxQueued,
          },
        },
      };
    } catch (thrown) {
      const reason = thrownMessage(thrown);
      return { ok: false, detail: { redis: { reachable: false, address: where, reason } } };
    }
  }

  async close(): Promise<void> {
    await this.queue.close();
    this.redis.disconnect();
  }
}
