import type { ErrorBody } from '../../../core/contract/errors';
import type { TranscriptionResponse } from '../../../core/contract/response';
import type { JobEnd, QueuedJob } from './job-queue';

/**
 * What an async job's webhook receives, in the Standard Webhooks shape (`type`, `timestamp`,
 * `data`): `transcription.success` with the result, or `transcription.error` with the error
 * body. The synchronous endpoints keep the original service's `{request_id, payload}`.
 */
export type JobWebhookPayload =
  | {
      type: 'transcription.success';
      timestamp: string;
      data: { id: string; request_id: string; status: 'done'; result: TranscriptionResponse };
    }
  | {
      type: 'transcription.error';
      timestamp: string;
      data: { id: string; request_id: string; status: 'error'; error: ErrorBody };
    };

/** The payload of a finished job; null for a cancelled one (whoever cancelled it knows). */
export function jobWebhookPayload(
  job: QueuedJob,
  end: JobEnd,
  now: Date,
): JobWebhookPayload | null {
  const base = { id: job.id, request_id: job.requestId };
  const timestamp = now.toISOString();
  if (end.status === 'done') {
    return {
      type: 'transcription.success',
      timestamp,
      data: { ...base, status: 'done', result: end.result },
    };
  }
  if (end.status === 'cancelled') return null;
  return {
    type: 'transcription.error',
    timestamp,
    data: { ...base, status: 'error', error: end.error },
  };
}
