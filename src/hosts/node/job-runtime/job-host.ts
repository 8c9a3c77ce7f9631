import { ENDPOINTS, type Endpoint } from '../../../core/contract/endpoints';
import type { SourcePage } from '../../../core/contract/response';
import type { JobEngine, JobHost } from '../../../engine/job/job';
import type { Voice } from '../../../core/voices/voice';
import type { DiskFile } from '../media-file';
import { DEFAULT_YT_DLP } from '../yt-dlp';
import type { DecodedAudioAccount } from './decoded-audio-account';
import { fetchLinkedMedia, withSourcePage, type PageLinks } from './linked-media';
import { checkUrlAddress } from './media-download';
import type { WebhookSettings } from './webhook-sender';

/**
 * What a job runs under, on the server as on a worker: the limits `murmur serve` and `murmur
 * worker` share.
 */
export interface JobSettings extends WebhookSettings {
  maxUploadBytes: number;
  maxSeconds: number;
  maxChannels: number;
  idleSeconds: number;
  totalSeconds: number;
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
  /** How links to web pages are read (yt-dlp); refused as pages without it. */
  pageLinks?: PageLinks;
  /**
   * The operator's voices: they name the speakers of every request with diarization on. They
   * stay on this host: a response carries only the names.
   */
  voices?: readonly Voice[];
}

/**
 * A Node process as a job's host (the server's runs, the embedded queue's and a worker's): the
 * webhook's address checked and an `audio_url` downloaded (or read from the web page it links
 * to, the page then named in the response's metadata) into the request's own `folder` before
 * the request waits for its turn (a slow URL holds its own place, not a transcription slot, and
 * lands on disk under the upload's limit), then the engine of the slot `slot()` gives, within
 * the limits. The job delivers no webhook itself: the host's `WebhookSender` does, once the
 * answer went out or the end is recorded.
 */
export function nodeJobHost(
  settings: JobSettings,
  endpoint: Endpoint,
  folder: string,
  slot: (signal: AbortSignal | undefined) => Promise<number>,
  requestSignal: AbortSignal,
): JobHost<DiskFile> {
  const allowPrivate = settings.allowPrivateUrls;
  let page: SourcePage | null = null;
  return {
    prepare: async (request, signal, onDownload) => {
      if (request.webhook_url !== null) {
        checkUrlAddress(request.webhook_url, 'webhook_url', allowPrivate);
      }
      if (request.media.kind !== 'url') return request;
      onDownload?.(`Downloading ${new URL(request.media.url).host}`);
      const linked = await fetchLinkedMedia(
        request.media.url,
        ENDPOINTS[endpoint].urlField,
        folder,
        {
          maxBytes: settings.maxUploadBytes,
          maxSeconds: settings.maxSeconds,
          idleSeconds: settings.idleSeconds,
          totalSeconds: settings.totalSeconds,
          allowPrivate,
          video: endpoint === 'video',
          pages: settings.pageLinks ?? { binary: DEFAULT_YT_DLP, version: null },
        },
        signal ?? requestSignal,
      );
      page = linked.page;
      return { ...request, media: { kind: 'file', file: linked.file } };
    },
    annotate: (response) => withSourcePage(response, page),
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
    ...(settings.voices ? { voices: settings.voices } : {}),
  };
}
