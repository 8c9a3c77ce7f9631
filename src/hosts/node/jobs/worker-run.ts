import { rm } from 'node:fs/promises';
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ErrorBody } from '../../../core/contract/errors';
import type { TranscriptionResponse } from '../../../core/contract/response';
import type { ServerJobSettings } from '../server/job-host';
import type { QueuedJob } from './job-queue';
import { cancelledByClient, runQueuedJob, type JobResult } from './job-run';
import { cancelKey } from './redis-names';
import type { StoredProgress } from './redis-queue';

/** What a worker leaves in Redis as the job's return value: the end any server reports. */
export type StoredResult =
  | { status: 'done'; result: TranscriptionResponse }
  | { status: 'error' | 'cancelled'; error: ErrorBody };

/** How often a running job looks for its cancellation, and reports its progress at most. */
const LOOK_MS = 250;

/**
 * The processor of one BullMQ job on this worker's engine: ends at once if it was cancelled
 * while it waited, otherwise runs it, watching for a cancellation and reporting its stage. A
 * failure that another try may mend is thrown (BullMQ tries again, up to the job's attempts;
 * the last one's error body is the job's); any other end is returned as the job's result.
 */
export function jobProcessor(settings: ServerJobSettings, redis: Redis) {
  return async (job: Job<QueuedJob, StoredResult>): Promise<StoredResult> => {
    const data = job.data;
    const controller = new AbortController();
    const lookForCancel = async () => {
      if (!controller.signal.aborted && (await redis.exists(cancelKey(data.id))) === 1) {
        controller.abort(cancelledByClient());
      }
    };
    await lookForCancel();
    let latest: StoredProgress = { stage: null, progress: null };
    let sent = '';
    const timer = setInterval(() => {
      void lookForCancel().catch(() => undefined);
      const text = JSON.stringify(latest);
      if (text === sent) return;
      sent = text;
      void job.updateProgress(latest).catch(() => undefined);
    }, LOOK_MS);
    let result: JobResult;
    try {
      result = await runQueuedJob(data, settings, async () => 0, controller.signal, {
        started: () => undefined,
        stage: (stage, progress) => (latest = { stage, progress }),
      });
    } finally {
      clearInterval(timer);
    }
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    if (result.status === 'error' && result.retryable && !lastAttempt) {
      throw new Error(JSON.stringify(result.error));
    }
    // The job has its end: its files are no longer needed by any try.
    await rm(data.folder, { recursive: true, force: true });
    return result.status === 'done'
      ? { status: 'done', result: result.result }
      : { status: result.status, error: result.error };
  };
}
