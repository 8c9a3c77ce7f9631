import {
  DEFAULT_EMBEDDING_MODEL,
  DEFAULT_SEGMENTATION_MODEL,
  DEFAULT_TRANSLATION_MODEL,
  DEFAULT_WHISPER,
} from '../../../core/model-catalog';
import { DEFAULT_MEDIA_SETTINGS } from '../../../engine/stage-settings';
import type { JobEngine } from '../../../engine/job/job';
import { CliUsageError } from '../cli-args';
import { DEFAULT_YT_DLP } from '../yt-dlp';
import type { JobSettings } from './job-host';
import type { Voice } from '../../../core/voices/voice';
import { readVoicesAt } from './voices-on-disk';

/**
 * The options `murmur serve` and `murmur worker` share: the models, and the limits a job runs
 * under (a worker runs a server's jobs, so they are spelled, checked and defaulted alike).
 */
export interface JobArgs {
  models: string | null;
  model: string;
  /** The translation model, loaded on the first request that asks for translation. */
  translationModel: string;
  segmentationModel: string;
  embeddingModel: string;
  maxUploadMb: number;
  /** Longest media accepted (413 beyond), checked from the probe before decoding. */
  maxDurationMinutes: number;
  /** Most audio channels accepted (413 beyond). */
  maxChannels: number;
  /** The longest silence tolerated from a client or a media URL (headers, body, download). */
  idleTimeoutSeconds: number;
  /** The longest an upload or a media URL's download may take in all. */
  requestTimeoutSeconds: number;
  /** Let audio_url and webhook_url reach loopback and private addresses. */
  allowPrivateUrls: boolean;
  /** Decoded audio this long or longer goes to a scratch file rather than memory (seconds). */
  audioInMemorySeconds: number;
  /** The yt-dlp that reads links to web pages. */
  ytDlp: string;
  /** The operator's voices file: its voices name the speakers of every request for them. */
  voices: string | null;
}

export const JOB_ARG_DEFAULTS: JobArgs = {
  models: null,
  model: DEFAULT_WHISPER,
  translationModel: DEFAULT_TRANSLATION_MODEL,
  segmentationModel: DEFAULT_SEGMENTATION_MODEL,
  embeddingModel: DEFAULT_EMBEDDING_MODEL,
  maxUploadMb: 512,
  maxDurationMinutes: 120,
  maxChannels: 2,
  idleTimeoutSeconds: 30,
  requestTimeoutSeconds: 300,
  allowPrivateUrls: false,
  audioInMemorySeconds: DEFAULT_MEDIA_SETTINGS.compactFromSeconds,
  ytDlp: DEFAULT_YT_DLP,
  voices: null,
};

export function wholeNumber(name: string, value: string, min: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new CliUsageError(`--${name} must be a whole number of at least ${min}; got "${value}".`);
  }
  return Number(value);
}

export function positiveNumber(name: string, value: string): number {
  if (!/^\d+(\.\d+)?$/.test(value) || !(Number(value) > 0)) {
    throw new CliUsageError(`--${name} must be a number above 0; got "${value}".`);
  }
  return Number(value);
}

/** A `redis://` or `rediss://` URL, as the Redis client reads it. */
export function redisUrl(name: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliUsageError(
      `--${name} must be a URL such as redis://127.0.0.1:6379; got "${value}".`,
    );
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new CliUsageError(`--${name} must be a redis:// or rediss:// URL; got "${value}".`);
  }
  return value;
}

/** The options every host of jobs takes (`readJobOption`). */
export const JOB_OPTIONS = [
  'models',
  'model',
  'translation-model',
  'segmentation-model',
  'embedding-model',
  'max-upload-mb',
  'max-duration-minutes',
  'max-channels',
  'idle-timeout-seconds',
  'request-timeout-seconds',
  'yt-dlp',
  'audio-in-memory-seconds',
  'voices',
];

/** Reads `--name value` into `args` when it is a shared option; false when it is not one. */
export function readJobOption(args: JobArgs, name: string, value: string): boolean {
  switch (name) {
    case 'models':
      args.models = value;
      return true;
    case 'model':
      args.model = value;
      return true;
    case 'translation-model':
      args.translationModel = value;
      return true;
    case 'segmentation-model':
      args.segmentationModel = value;
      return true;
    case 'embedding-model':
      args.embeddingModel = value;
      return true;
    case 'max-upload-mb':
      args.maxUploadMb = wholeNumber(name, value, 1);
      return true;
    case 'max-duration-minutes':
      args.maxDurationMinutes = wholeNumber(name, value, 1);
      return true;
    case 'max-channels':
      args.maxChannels = wholeNumber(name, value, 1);
      return true;
    case 'idle-timeout-seconds':
      args.idleTimeoutSeconds = wholeNumber(name, value, 1);
      return true;
    case 'request-timeout-seconds':
      args.requestTimeoutSeconds = wholeNumber(name, value, 1);
      return true;
    case 'yt-dlp':
      args.ytDlp = value;
      return true;
    case 'audio-in-memory-seconds':
      args.audioInMemorySeconds = wholeNumber(name, value, 0);
      return true;
    case 'voices':
      args.voices = value;
      return true;
    default:
      return false;
  }
}

/**
 * The voices of `--voices FILE.json`, read once at start (none without it); a file that cannot
 * be used throws a `VoicesOnDiskError` whose sentence names it, so that nothing starts on it.
 */
export async function operatorVoices(args: JobArgs): Promise<Voice[]> {
  return args.voices === null ? [] : readVoicesAt(args.voices);
}

/** The settings a job runs under, from the shared options, on `engines`, with `voices`. */
export function jobSettingsOf(
  args: JobArgs,
  engines: readonly JobEngine[],
  voices: readonly Voice[] = [],
): Omit<JobSettings, 'webhook' | 'decodedAudio'> {
  return {
    ...(voices.length > 0 ? { voices } : {}),
    maxUploadBytes: args.maxUploadMb * 1024 * 1024,
    maxSeconds: args.maxDurationMinutes * 60,
    maxChannels: args.maxChannels,
    idleSeconds: args.idleTimeoutSeconds,
    totalSeconds: args.requestTimeoutSeconds,
    allowPrivateUrls: args.allowPrivateUrls,
    engines,
    audioInMemorySeconds: args.audioInMemorySeconds,
  };
}
