import { ServiceError, errorBody, thrownMessage } from '../../../core/contract/errors';
import {
  JOBS_PATH,
  QueueFullError,
  type JobEnd,
  type JobEvent,
  type JobQueue,
  type JobView,
  type QueueHealth,
  type QueuedJob,
} from '../job-runtime/job-queue';
import type { JobReport } from './job-run';
import { cancelledByClient } from './job-run';

/** Runs one job to its end; the queue decides nothing about engines or slots. */
export type JobRunner = (job: QueuedJob, signal: AbortSignal, report: JobReport) => Promise<JobEnd>;

export interface MemoryQueueOptions {
  /** Jobs that may wait for an engine; beyond them, 429. */
  maxQueued: number;
  /** Jobs run at once (for the wait a full queue announces). */
  concurrency: number;
  /** How long a finished job's result is kept. */
  keepMs: number;
  /** Called once a job has ended and its result is recorded (its webhook goes out here). */
  onFinished?: (job: QueuedJob, result: JobEnd) => void;
  now?: () => Date;
}

interface Entry {
  job: QueuedJob;
  view: JobView;
  controller: AbortController;
  /** Settles with the job's end, whatever way it ended. */
  done: Promise<JobEnd>;
  startedAt: number | null;
}

/**
 * The embedded queue: jobs in this process's memory, run as soon as the runner gives them an
 * engine. Nothing to install; lost when the process ends (`--redis` keeps them).
 */
export class MemoryJobQueue implements JobQueue {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners: ((event: JobEvent) => void)[] = [];
  private readonly now: () => Date;
  private meanSeconds = 10;
  private finished = 0;
  private closed = false;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly run: JobRunner,
    private readonly options: MemoryQueueOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    // Results expire even when nobody asks for them.
    this.sweeper = setInterval(() => this.sweep(), 60_000).unref();
  }

  private emit(event: JobEvent) {
    for (const listener of this.listeners) listener(event);
  }

  onEvent(listener: (event: JobEvent) => void): void {
    this.listeners.push(listener);
  }

  private queued(): number {
    let count = 0;
    for (const entry of this.entries.values()) if (entry.view.status === 'queued') count++;
    return count;
  }

  async submit(job: QueuedJob): Promise<void> {
    this.sweep();
    if (this.closed) {
      throw new ServiceError(
        'engine_unavailable',
        'The service is stopping; submit the job again.',
      );
    }
    const queued = this.queued();
    if (queued >= this.options.maxQueued) {
      const ahead = (queued + 1) / this.options.concurrency;
      throw new QueueFullError(queued, Math.max(1, Math.ceil(this.meanSeconds * ahead)));
    }
    const controller = new AbortController();
    const view: JobView = {
      id: job.id,
      status: 'queued',
      stage: null,
      progress: null,
      created_at: job.createdAt,
      finished_at: null,
      result: null,
      error: null,
    };
    const entry: Entry = {
      job,
      view,
      controller,
      // The run's own promise, once it has begun (below).
      done: new Promise<never>(() => undefined),
      startedAt: null,
    };
    // A job checks its request before it waits for an engine, but shows no stage until it runs
    // (as on a queue in Redis, where a worker does both once it has taken the job).
    let reached: Pick<JobView, 'stage' | 'progress'> = { stage: null, progress: null };
    const report: JobReport = {
      started: () => {
        if (view.status !== 'queued') return;
        view.status = 'processing';
        Object.assign(view, reached);
        entry.startedAt = performance.now();
        this.emit({ id: job.id, requestId: job.requestId, event: 'processing' });
      },
      stage: (stage, progress) => {
        reached = { stage, progress };
        if (view.status === 'processing') Object.assign(view, reached);
      },
    };
    this.entries.set(job.id, entry);
    this.emit({ id: job.id, requestId: job.requestId, event: 'queued' });
    entry.done = this.run(job, controller.signal, report)
      .catch((thrown: unknown): JobEnd => {
        // A runner that throws is a failure of ours, answered like any other.
        const error =
          thrown instanceof ServiceError
            ? thrown
            : new ServiceError('internal_error', thrownMessage(thrown));
        const body = errorBody(error, {
          path: JOBS_PATH,
          requestId: job.requestId,
          now: this.now(),
        });
        return { status: 'error', error: body, retryable: false };
      })
      .then((end) => {
        this.finish(entry, end);
        return end;
      });
  }

  private finish(entry: Entry, result: JobEnd) {
    const { view, job } = entry;
    if (entry.startedAt !== null) {
      const seconds = (performance.now() - entry.startedAt) / 1000;
      this.finished++;
      this.meanSeconds += (seconds - this.meanSeconds) / Math.min(this.finished, 20);
    }
    view.status = result.status;
    view.finished_at = this.now().toISOString();
    if (result.status === 'done') {
      view.result = result.result;
      view.progress = 1;
    } else {
      view.error = result.error;
    }
    this.emit({
      id: job.id,
      requestId: job.requestId,
      event: result.status,
      ...(result.status === 'done' ? {} : { message: result.error.message }),
    });
    this.options.onFinished?.(job, result);
  }

  /** Forgets the results kept longer than the queue keeps them. */
  private sweep() {
    const oldest = this.now().getTime() - this.options.keepMs;
    for (const [id, entry] of this.entries) {
      const finished = entry.view.finished_at;
      if (finished !== null && Date.parse(finished) <= oldest) this.entries.delete(id);
    }
  }

  get(id: string): Promise<JobView | null> {
    this.sweep();
    const entry = this.entries.get(id);
    return Promise.resolve(entry ? structuredClone(entry.view) : null);
  }

  async ended(id: string, signal: AbortSignal): Promise<JobEnd | null> {
    const entry = this.entries.get(id);
    if (!entry) return null;
    signal.throwIfAborted();
    return new Promise<JobEnd>((resolve, reject) => {
      const aborted = () => reject(signal.reason);
      signal.addEventListener('abort', aborted, { once: true });
      void entry.done.then((end) => {
        signal.removeEventListener('abort', aborted);
        resolve(end);
      });
    });
  }

  async cancel(id: string): Promise<JobView | null> {
    this.sweep();
    const entry = this.entries.get(id);
    if (!entry) return null;
    if (entry.view.finished_at === null) {
      entry.controller.abort(cancelledByClient());
      await entry.done;
    }
    return structuredClone(entry.view);
  }

  health(): Promise<QueueHealth> {
    let processing = 0;
    for (const entry of this.entries.values()) if (entry.view.status === 'processing') processing++;
    return Promise.resolve({
      ok: true,
      detail: {
        jobs: {
          store: 'memory',
          queued: this.queued(),
          processing,
          max_queued: this.options.maxQueued,
        },
      },
    });
  }

  async close(graceMs: number): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    const running = [...this.entries.values()].filter((e) => e.view.finished_at === null);
    const all = Promise.allSettled(running.map((e) => e.done));
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
    const stopped = new ServiceError(
      'engine_unavailable',
      'The service stopped before this job finished; submit it again.',
    );
    for (const entry of running) entry.controller.abort(stopped);
    await all;
  }
}
