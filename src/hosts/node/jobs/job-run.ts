import { ServiceError, isClientError } from '../../../core/contract/errors';
import type { Stage } from '../../../core/stages';
import { runJob } from '../../../engine/job/job';
import { nodeJobHost, type JobSettings } from '../job-runtime/job-host';
import { JOBS_PATH, type JobEnd, type QueuedJob } from '../job-runtime/job-queue';

/** What a running job tells: it has an engine now, and which stage it is in. */
export interface JobReport {
  started(): void;
  stage(stage: Stage, progress: number | null): void;
}

/**
 * Runs one queued job on `slot`'s engine through the Job every host uses: its `audio_url`
 * downloaded into the job's folder, the server's limits, and `signal` to cancel it. The job's
 * webhook is not delivered here (the caller records the result first, then delivers).
 */
export async function runQueuedJob(
  job: QueuedJob,
  settings: JobSettings,
  slot: (signal: AbortSignal | undefined) => Promise<number>,
  signal: AbortSignal,
  report: JobReport,
): Promise<JobEnd> {
  const started = async (s: AbortSignal | undefined) => {
    const index = await slot(s);
    report.started();
    return index;
  };
  const host = nodeJobHost(settings, job.endpoint, job.folder, started, signal);
  const fields = { endpoint: job.endpoint, strings: job.strings, files: job.files };
  const outcome = await runJob(
    fields,
    host,
    { requestId: job.requestId, signal },
    {
      onProgress: (stage, fraction) => {
        // Downloading a link is work under way: the job is processing, though it holds no
        // engine yet (a slow link keeps its own place, not a transcription slot).
        if (stage === 'download') report.started();
        report.stage(stage, fraction);
      },
    },
  );
  if (outcome.ok) return { status: 'done', result: outcome.response };
  const error = { ...outcome.body, path: JOBS_PATH };
  if (outcome.error.code === 'internal_error') {
    error.message = withoutPaths(error.message, job.folder);
  }
  const cancelled = outcome.error.code === 'cancelled';
  return {
    status: cancelled ? 'cancelled' : 'error',
    error,
    retryable: !cancelled && !isClientError(outcome.error.code),
  };
}

/**
 * An internal failure's message without the paths it names: where the service keeps its files
 * is the operator's business, not the client's.
 */
export function withoutPaths(message: string, folder: string): string {
  return (
    message
      // What Node says of a file names it in quotes: "open '/srv/murmur/jobs/<id>/1-upload.mp3'".
      .replace(/'(?:[A-Za-z]:)?[\\/][^']*'/g, 'a file of the job')
      .split(folder)
      .join("the job's folder")
  );
}

/** The reason a job is cancelled with, so that its error body says who cancelled it. */
export const cancelledByClient = () =>
  new ServiceError('cancelled', 'The job was cancelled (DELETE /v2/transcription/<id>).');
