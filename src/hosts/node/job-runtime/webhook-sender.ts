import type { TranscriptionResponse } from '../../../core/contract/response';
import {
  deliverWebhook,
  type DeliveryEvent,
  type DeliveryFetch,
  type DeliveryOutcome,
  type DeliveryPolicy,
  type DeliverySigner,
} from '../../../core/webhook/delivery';
import { webhookDelivery, type JobHost } from '../../../engine/job/job';
import type { DiskFile } from '../media-file';
import { nodeDeliveryFetch, publicDeliveryFetch } from '../webhook-fetch';
import type { JobEnd, QueuedJob } from './job-queue';
import { jobWebhookPayload } from './job-webhook';

/** What of a host's settings says how webhook receivers are reached. */
export interface WebhookSettings {
  /** Let webhook_url reach loopback and private addresses. */
  allowPrivateUrls: boolean;
  /** What tests and embedders replace; the signer comes from MURMUR_WEBHOOK_SECRET. */
  webhook?: { fetch?: DeliveryFetch; policy?: DeliveryPolicy; signer?: () => DeliverySigner };
}

export type WebhookTransport = NonNullable<JobHost<DiskFile>['webhook']>;

/**
 * How receivers are reached under `settings`: the one place that decides whether a delivery may
 * reach a private address (the server's runs, its queued requests and the workers all ask here).
 */
export function webhookTransport(settings: WebhookSettings): WebhookTransport {
  return {
    fetch:
      settings.webhook?.fetch ??
      (settings.allowPrivateUrls ? nodeDeliveryFetch : publicDeliveryFetch),
    ...(settings.webhook?.policy ? { policy: settings.webhook.policy } : {}),
    ...(settings.webhook?.signer ? { signer: settings.webhook.signer } : {}),
  };
}

/** What the sender tells of one delivery: each try's events, and its outcome. */
export interface DeliveryListener {
  onEvent?: (event: DeliveryEvent) => void;
  onDelivered?: (outcome: DeliveryOutcome) => void;
}

/**
 * Every webhook a Node host sends goes out here: a synchronous request's response (the original
 * service's `{request_id, payload}`), after its answer, and an async job's end (Standard
 * Webhooks), after the queue recorded it. It keeps the deliveries under way, so that a host that
 * stops waits for them within its grace.
 */
export class WebhookSender {
  readonly transport: WebhookTransport;
  private readonly pending = new Set<Promise<unknown>>();

  /** `counted` hears every outcome (the host's metrics), before the delivery's own listener. */
  constructor(
    settings: WebhookSettings,
    private readonly counted: (outcome: DeliveryOutcome) => void = () => undefined,
  ) {
    this.transport = webhookTransport(settings);
  }

  /** A synchronous request's response to its `webhook_url`; nothing when it has none. */
  response(
    url: string | null,
    requestId: string,
    response: TranscriptionResponse,
    listener: DeliveryListener = {},
  ): void {
    const deliver = webhookDelivery(url, requestId, response, { webhook: this.transport });
    if (deliver) this.track(deliver(listener.onEvent), listener);
  }

  /** A finished async job's end to its webhook; nothing when it has none or was cancelled. */
  jobEnd(job: QueuedJob, end: JobEnd, listener: DeliveryListener = {}): void {
    const payload = jobWebhookPayload(job, end, new Date());
    if (job.webhookUrl === null || payload === null) return;
    const { fetch, policy, signer } = this.transport;
    const delivery = deliverWebhook(job.webhookUrl, payload, {
      fetch,
      ...(policy ? { policy } : {}),
      ...(signer ? { sign: signer() } : {}),
      ...(listener.onEvent ? { onEvent: listener.onEvent } : {}),
    });
    this.track(delivery, listener);
  }

  private track(delivery: Promise<DeliveryOutcome>, listener: DeliveryListener) {
    const tracked = delivery.then((outcome) => {
      this.pending.delete(tracked);
      this.counted(outcome);
      listener.onDelivered?.(outcome);
    });
    this.pending.add(tracked);
  }

  /** Settles once the deliveries under way have ended, or after `withinMs`. */
  async settled(withinMs = Infinity): Promise<void> {
    const all = Promise.allSettled([...this.pending]);
    if (withinMs === Infinity) return void (await all);
    await Promise.race([all, new Promise((resolve) => setTimeout(resolve, withinMs).unref())]);
  }
}
