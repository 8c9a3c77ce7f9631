import { Queue, QueueEvents, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { ServiceError, thrownMessage } from '../../../core/contract/errors';
import {
  QueueFullError,
  type JobEnd,
  type JobEvent,
  type JobQueue,
  type JobView,
  type QueueHealth,
  type QueuedJob,
} from '../job-runtime/job-queue';
import { jobView } from './redis-job-view';
import { cancelKey, connectionOf, QUEUE_NAME, reconnectAfter } from './redis-names';

export interface RedisQueueOptions {
  url: string;
  maxQueued: number;
  keepResultsHours: number;
  /** Runs of a job (a failure of ours, or a worker that died) before it ends in error. */
  attempts: number;
}

/** How often a wait for a job's end looks whether the job is still there at all. */
const GONE_LOOK_MS = 5000;

/**
 * Jobs on a BullMQ queue in Redis: any number of servers put jobs on it, any number of workers
 * (`murmur worker`, on any machine) take them, and any server answers for any job, since the
 * state, progress and result live in Redis. Redis with its append-only file keeps what is queued
 * across a restart.
 */
export class RedisJobQueue implements JobQueue {
  private readonly queue: Queue<QueuedJob, JobEnd>;
  private readonly redis: Redis;
  private readonly listeners: ((event: JobEvent) => void)[] = [];
  /**
   * BullMQ's events of the queue (a stream in Redis, read on a connection of their own), which
   * the waits for a job's end listen to. Read from the start, so that it already listens when
   * the first request waits.
   */
  private readonly events: QueueEvents;

  constructor(private readonly options: RedisQueueOptions) {
    const connection = connectionOf(options.url, 'server');
    this.queue = new Queue(QUEUE_NAME, { connection });
    this.redis = new Redis(options.url, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      retryStrategy: reconnectAfter,
    });
    // Without listeners, a Redis that goes away is an unhandled error that ends the process;
    // here it is what /health reports and what submit answers 503 for.
    this.queue.on('error', () => undefined);
    this.redis.on('error', () => undefined);
    this.events = new QueueEvents(QUEUE_NAME, {
      connection: { url: options.url, retryStrategy: reconnectAfter },
    });
    this.events.on('error', () => undefined);
  }

  onEvent(listener: (event: JobEvent) => void): void {
    this.listeners.push(listener);
  }

  /**
   * The 503 while Redis is away, in plain words: the client library's own ("Stream isn't
   * writeable and enableOfflineQueue options is false") says nothing to a caller.
   */
  private unavailable(thrown: unknown): ServiceError {
    const detail = thrownMessage(thrown);
    const away =
      /writeable|offline ?queue|ECONNREFUSED|ECONNRESET|Connection is closed|max retries|ETIMEDOUT|EPIPE/i.test(
        detail,
      );
    return new ServiceError(
      'engine_unavailable',
      away
        ? 'The job queue (Redis) is not reachable just now; try again in a few seconds.'
        : `The job queue (Redis) is not reachable: ${detail}`,
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
    let job: Job<QueuedJob, JobEnd> | undefined;
    let cancelledAt: string | null;
    let state: string;
    try {
      // The state first, then the job: a job that has ended has its reason written with its
      // state, so a job read after a state that says it failed holds why. Read the other way
      // round, a job that ended between the two reads came without it.
      [state, cancelledAt] = await Promise.all([
        this.queue.getJobState(id),
        this.redis.get(cancelKey(id)),
      ]);
      job = await this.queue.getJob(id);
      if (!job || state === 'unknown') return null;
    } catch (thrown) {
      throw this.unavailable(thrown);
    }
    // BullMQ removes old results only as later jobs finish: one past its time is gone already.
    const keepMs = this.options.keepResultsHours * 3600 * 1000;
    if (job.finishedOn && job.finishedOn + keepMs <= Date.now()) return null;
    return jobView(id, state, job, cancelledAt);
  }

  /**
   * Listens for the job's `completed` or `failed` event (a retried attempt ends in neither), and
   * looks at the job once the listener is ready, so that an end reached before is not missed. A
   * Redis that cannot be reached ends the wait with the queue's 503, as a look would find it: the
   * events' connection failing is the sign to look. A slow look stays for what no event tells:
   * a job gone with a Redis restarted without its data.
   */
  async ended(id: string, signal: AbortSignal): Promise<JobEnd | null> {
    // BullMQ's per-job event names (`completed:<id>`) are not in its typed listener list.
    const events = this.events as unknown as NodeJS.EventEmitter;
    return new Promise<JobEnd | null>((resolve, reject) => {
      const finish = (settle: () => void) => {
        events.off(`completed:${id}`, completed);
        events.off(`failed:${id}`, failed);
        events.off('error', failed);
        clearInterval(timer);
        signal.removeEventListener('abort', aborted);
        settle();
      };
      const completed = ({ returnvalue }: { returnvalue: unknown }) =>
        finish(() => resolve(returnvalue as JobEnd));
      const failed = () => void look();
      const aborted = () => finish(() => reject(signal.reason));
      const look = async () => {
        try {
          const end = await this.endOf(id);
          if (end !== undefined) finish(() => resolve(end));
        } catch (thrown) {
          finish(() => reject(thrown));
        }
      };
      events.on(`completed:${id}`, completed);
      events.on(`failed:${id}`, failed);
      events.on('error', failed);
      const timer = setInterval(() => void look(), GONE_LOOK_MS);
      signal.addEventListener('abort', aborted, { once: true });
      if (signal.aborted) return aborted();
      void this.events.waitUntilReady().then(look, look);
    });
  }

  /** The job's end if it has one, null when it is unknown, undefined while it has none yet. */
  private async endOf(id: string): Promise<JobEnd | null | undefined> {
    const view = await this.get(id);
    if (view === null) return null;
    if (view.finished_at === null) return undefined;
    return view.status === 'done' && view.result !== null
      ? { status: 'done', result: view.result, stage: view.stage, progress: view.progress }
      : {
          status: view.status === 'cancelled' ? 'cancelled' : 'error',
          // Every view of an ended job that is not done carries its error body.
          error: view.error!,
          stage: view.stage,
          progress: view.progress,
        };
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
    // A running job stops at its worker's next look (a fraction of a second); wait for its end,
    // at most 10 s (a job that waits for a worker shows as cancelled at once).
    await this.ended(id, AbortSignal.timeout(10_000)).catch(() => undefined);
    return this.get(id);
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
    await this.events.close();
    await this.queue.close();
    this.redis.disconnect();
  }
}
