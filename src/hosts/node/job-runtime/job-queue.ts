import type { Endpoint } from '../../../core/contract/endpoints';
import { ServiceError, type ErrorBody } from '../../../core/contract/errors';
import type { TranscriptionResponse } from '../../../core/contract/response';
import type { Stage } from '../../../core/stages';
import type { DiskFile } from '../media-file';

/**
 * Jobs that outlive the connection that asked for them: submitted, looked up and cancelled by
 * id. The server holds one `JobQueue`: in memory (the embedded default) or on a queue in Redis
 * that workers on other machines take jobs from. Both answer with the same `JobView`.
 */

export type JobStatus = 'queued' | 'processing' | 'done' | 'error' | 'cancelled';

/**
 * A job as it travels from the server that took it to whoever runs it: plain JSON, so that it
 * can wait in Redis and run on another machine (its files lie in a folder every machine mounts).
 */
export interface QueuedJob {
  id: string;
  /** The id of the request that submitted it: in its logs, its error body and its webhook. */
  requestId: string;
  endpoint: Endpoint;
  strings: Record<string, string>;
  files: Record<string, DiskFile>;
  /** The job's own folder: its upload, and its `audio_url` once downloaded; removed after. */
  folder: string;
  webhookUrl: string | null;
  /** ISO 8601. */
  createdAt: string;
}

/**
 * A job's end, the one shape the runner, the queue, the worker and the server all use: what the
 * runner returns, what a worker leaves in Redis (and in the job's folder) as the job's return
 * value, and what a waiting request is answered from. `stage` and `progress` say where the run
 * was when it ended (absent from the ends of older workers, and from a runner's own).
 */
export type JobEnd = (
  | { status: 'done'; result: TranscriptionResponse }
  | {
      status: 'error' | 'cancelled';
      error: ErrorBody;
      /**
       * Whether another try may succeed (a failure of ours, not of the request or media): the
       * runner's word to the worker, which alone tries again; absent once recorded.
       */
      retryable?: boolean;
    }
) & { stage?: Stage | null; progress?: number | null };

/**
 * What `GET /v2/transcription/<id>` answers: a snapshot of the job at any time (queued and
 * running too, with its id and times), in the spec's field names. It stays apart from `JobEnd`
 * because it is the wire body, while `JobEnd` is only the end, as it is kept and passed on.
 */
export interface JobView {
  id: string;
  status: JobStatus;
  /** The stage running now (or the last one reached); null before the job starts. */
  stage: Stage | null;
  /** The stage's progress from 0 to 1, when it is known. */
  progress: number | null;
  created_at: string;
  finished_at: string | null;
  /** The spec's response, once done. */
  result: TranscriptionResponse | null;
  /** The spec's error body, once failed or cancelled. */
  error: ErrorBody | null;
}

/** One change of a job, for the log line each job event gets. */
export interface JobEvent {
  id: string;
  requestId: string;
  event: 'queued' | 'processing' | 'done' | 'error' | 'cancelled' | 'retrying';
  message?: string;
}

export interface QueueHealth {
  ok: boolean;
  /** Fields for `/health`: the queue's kind, its depth, and whether its store is reachable. */
  detail: Record<string, unknown>;
}

export interface JobQueue {
  /** Takes a job; throws `QueueFullError` past the queue's limit. */
  submit(job: QueuedJob): Promise<void>;
  /** The job's view; null for an id that is unknown or whose result has expired. */
  get(id: string): Promise<JobView | null>;
  /**
   * The job's end, once it has one (at once for an ended job); null for an unknown id or one
   * removed meanwhile. Rejects when `signal` aborts first.
   */
  ended(id: string, signal: AbortSignal): Promise<JobEnd | null>;
  /**
   * Cancels a queued or running job (a finished one stays as it is); the job's view after, or
   * null for an unknown id.
   */
  cancel(id: string): Promise<JobView | null>;
  /**
   * Removes a finished job and its result at once (a synchronous request's job, whose result
   * went out in its answer); an unknown id is no error.
   */
  forget?(id: string): Promise<void>;
  onEvent(listener: (event: JobEvent) => void): void;
  health(): Promise<QueueHealth>;
  /** Stops taking jobs; the in-memory queue gives those it runs `graceMs` before cancelling. */
  close(graceMs: number): Promise<void>;
}

/** The 429 of a full queue, with the seconds a client should wait (`Retry-After`). */
export class QueueFullError extends ServiceError {
  constructor(
    readonly queued: number,
    readonly retryAfterSeconds: number,
  ) {
    super(
      'too_many_requests',
      `The queue is full (${queued} job${queued === 1 ? '' : 's'} waiting); try again in ${retryAfterSeconds} s.`,
    );
  }
}

/** The path async jobs' error bodies name. */
export const JOBS_PATH = '/v2/transcription';
