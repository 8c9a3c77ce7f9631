import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { ServiceError, errorBody } from '../../../core/contract/errors';
import type { JobSettings } from '../job-runtime/job-host';
import { JOBS_PATH, type JobEnd, type QueuedJob } from '../job-runtime/job-queue';
import { filesGone, hasKeptEnd, keepEnd, keptEnd } from './job-end-file';
import { cancelledByClient, runQueuedJob } from './job-run';
import { cancelKey, lockKey } from './redis-names';
import type { StoredProgress } from './redis-job-view';

/**
 * How often a running job looks for its cancellation and for an end kept by another run, and
 * reports its progress at most. A look, not an event: the kept end is a file, written exactly
 * when Redis was away (so no event could announce it), and the same look reads the cancel key
 * in the same round trip's time.
 */
const LOOK_MS = 250;

/** Why a run stops when another run of the same job has kept the job's end. */
const ENDED_ELSEWHERE = new ServiceError('cancelled', 'Another run of the job reached its end.');

/** The end of a job whose files were removed from the store before it ran: no try can mend it. */
function goneEnd(job: QueuedJob): JobEnd {
  const error = new ServiceError(
    'internal_error',
    "The job's files are no longer in the service's store; submit the job again.",
  );
  return {
    status: 'error',
    error: errorBody(error, { path: JOBS_PATH, requestId: job.requestId, now: new Date() }),
    stage: null,
    progress: null,
  };
}

/**
 * The processor of one BullMQ job on this worker's engine: ends at once if it was cancelled
 * while it waited, otherwise runs it, watching for a cancellation and reporting its stage. A
 * failure that another try may mend is thrown (BullMQ tries again, up to the job's attempts;
 * the last one's error body is the job's); any other end is kept in the job's folder, then
 * returned as the job's result. The folder stays until the queue has recorded the end (the
 * worker removes it then): a run whose record is refused, because its lock lapsed while Redis
 * was away, leaves the end for the run that takes the job again.
 */
export function jobProcessor(settings: JobSettings, redis: Redis) {
  return async (job: Job<QueuedJob, JobEnd>): Promise<JobEnd> => {
    const data = job.data;
    const earlier = await keptEnd<JobEnd>(data.folder);
    if (earlier !== null) return earlier;
    if (await filesGone(data)) return goneEnd(data);
    const controller = new AbortController();
    const look = async () => {
      if (controller.signal.aborted) return;
      if (await hasKeptEnd(data.folder)) controller.abort(ENDED_ELSEWHERE);
      else if ((await redis.exists(cancelKey(data.id))) === 1) {
        controller.abort(cancelledByClient());
      }
    };
    await look();
    // A job cancelled while it waited ends without having run: it reached no stage.
    const ranNot = controller.signal.aborted;
    // Which start of the job the progress belongs to: a server shows a progress left by an
    // earlier run of the job as nothing yet.
    const run = job.attemptsStarted;
    let latest: StoredProgress = { stage: null, progress: null, run };
    let sent = '';
    const timer = setInterval(() => {
      void look().catch(() => undefined);
      const text = JSON.stringify(latest);
      if (text === sent) return;
      // Only the worker that holds the job reports: one whose lock lapsed (Redis away, a held
      // event loop) may still be running while another has taken the job again, and two
      // reporting in turn would move the job's progress back and forth.
      void (async () => {
        if ((await redis.get(lockKey(job.id!))) !== job.token) return;
        sent = text;
        await job.updateProgress(latest);
      })().catch(() => undefined);
    }, LOOK_MS);
    let result: JobEnd;
    try {
      result = await runQueuedJob(data, settings, async () => 0, controller.signal, {
        started: () => undefined,
        stage: (stage, progress) => (latest = { stage, progress, run }),
      });
    } finally {
      clearInterval(timer);
    }
    if (result.status !== 'done' && controller.signal.reason === ENDED_ELSEWHERE) {
      const kept = await keptEnd<JobEnd>(data.folder);
      if (kept !== null) return kept;
    }
    const lastAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
    if (result.status === 'error' && result.retryable && !lastAttempt) {
      throw new Error(JSON.stringify(result.error));
    }
    const last = ranNot
      ? { stage: null, progress: null }
      : { stage: latest.stage, progress: latest.progress };
    const end: JobEnd =
      result.status === 'done'
        ? { status: 'done', result: result.result, ...last }
        : { status: result.status, error: result.error, ...last };
    // Without its folder the end can still be recorded; no later run would find anything else.
    await keepEnd(data.folder, end).catch(() => undefined);
    return end;
  };
}
