import type { Job } from 'bullmq';
import { ServiceError, errorBody, type ErrorBody } from '../../../core/contract/errors';
import { STAGES, type Stage } from '../../../core/stages';
import { JOBS_PATH, type JobEnd, type JobView, type QueuedJob } from '../job-runtime/job-queue';

/** What a worker reports while it runs a job (BullMQ's progress, which may be any JSON). */
export interface StoredProgress {
  stage: Stage | null;
  progress: number | null;
  /** The job's start (BullMQ's `attemptsStarted`) the report is from. */
  run?: number;
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
  job: Job<QueuedJob, JobEnd>,
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

const times = (n: number) => `${n} time${n === 1 ? '' : 's'}`;

/**
 * The error body of a job BullMQ gave up on (every attempt failed, or its workers died).
 * `given`: the reason the `failed` event came with, which a job object read before the job
 * ended does not hold yet. A job with no reason at all was given up by BullMQ itself, which
 * only does so when its workers died under it.
 */
export function failureBody(job: Job<QueuedJob>, given?: string): ErrorBody {
  const reason = job.failedReason || given || null;
  if (reason !== null) {
    try {
      // A worker that gave up on an attempt threw the attempt's error body as its message.
      const body = JSON.parse(reason) as ErrorBody;
      if (typeof body.statusCode === 'number') return body;
    } catch {
      // Not ours: BullMQ's own reason, such as a job whose workers stopped too often.
    }
  }
  const stalled = reason === null || /stalled/.test(reason);
  // BullMQ counts each time a job's worker was found dead under it; the last one ended it.
  const died = Math.max(1, job.stalledCounter ?? 0);
  const message = stalled
    ? `The job's worker stopped while running it (it died or lost Redis for too long), ${times(died)}, more often than the workers allow (--max-stalls): the job was given up.`
    : `The job failed ${times(Math.max(1, job.attemptsMade))}: ${reason}`;
  return errorBody(new ServiceError('internal_error', message), {
    path: JOBS_PATH,
    requestId: job.data.requestId,
    now: new Date(job.finishedOn ?? Date.now()),
  });
}

/**
 * A job's view from what BullMQ holds of it: its state, its progress, the end its worker
 * returned, and `cancelledAt`, the time a cancellation was asked for while it waited.
 */
export function jobView(
  id: string,
  state: string,
  job: Job<QueuedJob, JobEnd>,
  cancelledAt: string | null,
): JobView {
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
