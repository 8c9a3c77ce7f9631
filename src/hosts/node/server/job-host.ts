import { ENDPOINTS, type Endpoint } from '../../../core/contract/endpoints';
import type { DeliveryFetch, DeliveryPolicy, DeliverySigner } from '../../../core/webhook/delivery';
import type { JobEngine, JobHost } from '../../../engine/job/job';
import type { DiskFile } from '../media-file';
import { nodeDeliveryFetch, publicDeliveryFetch } from '../webhook-fetch';
import type { DecodedAudioAccount } from './decoded-audio-account';
import { checkUrlAddress, downloadMedia } from './media-download';

/** What of the server's settings a request's job runs under. */
export interface ServerJobSettings {
  maxUploadBytes: number;
  maxSeconds: number;
  maxChannels: number;
  idleSeconds: number;
  totalSeconds: number;
  allowPrivateUrls: boolean;
  /**
   * One engine per slot: a job runs on the engine of the slot it is given (the server's run on
   * a worker thread each; a queue worker's on its own thread).
   */
  engines: readonly JobEngine[];
  /**
   * Audio this long or longer (seconds, once decoded) goes to a scratch file rather than memory;
   * the media settings' by default.
   */
  audioInMemorySeconds?: number;
  /** Where the jobs' decoded audio is counted (for `/metrics`); none by default. */
  decodedAudio?: DecodedAudioAccount;
  webhook?: { fetch?: DeliveryFetch; policy?: DeliveryPolicy; signer?: () => DeliverySigner };
}

/**
 * The server as a job's host: the webhook's address checked and an `audio_url` downloaded into
 * the request's own `folder` before the request waits for its turn (a slow URL holds its own
 * place, not a transcription slot, and lands on disk under the upload's limit), then the engine
 * of the slot `slot()` gives, within the server's limits.
 */
export function serverJobHost(
  settings: ServerJobSettings,
  endpoint: Endpoint,
  folder: string,
  slot: (signal: AbortSignal | undefined) => Promise<number>,
  requestSignal: AbortSignal,
): JobHost<DiskFile> {
  const allowPrivate = settings.allowPrivateUrls;
  return {
    prepare: async (request, signal) => {
      if (request.webhook_url !== null) {
        checkUrlAddress(request.webhook_url, 'webhook_url', allowPrivate);
      }
      if (request.media.kind !== 'url') return request;
      const file = await downloadMedia(
        request.media.url,
        ENDPOINTS[endpoint].urlField,
        folder,
        {
          maxBytes: settings.maxUploadBytes,
          idleSeconds: settings.idleSeconds,
          totalSeconds: settings.totalSeconds,
          allowPrivate,
        },
        signal ?? requestSignal,
      );
      return { ...request, media: { kind: 'file', file } };
    },
    engine: async (signal) => {
      const engine = settings.engines[await slot(signal)];
      if (engine === undefined) throw new Error('No engine for the slot given.');
      return engine;
    },
    limits: { maxSeconds: settings.maxSeconds, maxChannels: settings.maxChannels },
    ...(settings.audioInMemorySeconds === undefined
      ? {}
      : { settings: { media: { compactFromSeconds: settings.audioInMemorySeconds } } }),
    ...(settings.decodedAudio ? { onDecodedAudio: settings.decodedAudio.job() } : {}),
    webhook: serverWebhook(settings),
  };
}

/** How the server reaches a request's webhook receiver, under its settings. */
export function serverWebhook(
  settings: ServerJobSettings,
): NonNullable<JobHost<DiskFile>['webhook']> {
  return {
    fetch:
      settings.webhook?.fetch ??
      (settings.allowPrivateUrls ? nodeDeliveryFetch : publicDeliveryFetch),
    ...(settings.webhook?.policy ? { policy: settings.webhook.policy } : {}),
    ...(settings.webhook?.signer ? { signer: settings.webhook.signer } : {}),
  };
}
