import type { ErrorBody } from '../../../core/contract/errors';
import type { TranscriptionResponse } from '../../../core/contract/response';
import {
  deliverWebhook,
  type DeliveryFetch,
  type DeliveryOutcome,
  type DeliveryPolicy,
  type DeliverySigner,
} from '../../../core/webhook/delivery';
import type { QueuedJob } from './job-queue';
import type { JobResult } from './job-run';

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
  result: JobResult,
  now: Date,
): JobWebhookPayload | null {
  const base = { id: job.id, request_id: job.requestId };
  const timestamp = now.toISOString();
  if (result.status === 'done') {
    return {
      type: 'transcription.success',
      timestamp,
      data: { ...base, status: 'done', result: result.result },
    };
  }
  if (result.status === 'cancelled') return null;
  return {
    type: 'transcription.error',
    timestamp,
    data: { ...base, status: 'error', error: result.error },
  };
}

export interface JobWebhookSettings {
  fetch: DeliveryFetch;
  policy?: DeliveryPolicy;
  /** A signer for one delivery; none: deliveries are not signed. */
  signer?: () => DeliverySigner;
}

/** Delivers a finished job's webhook, or resolves null when it has none to deliver. */
export async function deliverJobWebhook(
  job: QueuedJob,
  result: JobResult,
  settings: JobWebhookSettings,
): Promise<DeliveryOutcome | null> {
  const payload = jobWebhookPayload(job, result, new Date());
  if (job.webhookUrl === null || payload === null) return null;
  return deliverWebhook(job.webhookUrl, payload, {
    fetch: settings.fetch,
    ...(settings.policy ? { policy: settings.policy } : {}),
    ...(settings.signer ? { sign: settings.signer() } : {}),
  });
}
