import {
  DEFAULT_EMBEDDING_MODEL,
  DEFAULT_SEGMENTATION_MODEL,
  DEFAULT_TRANSLATION_MODEL,
  DEFAULT_WHISPER,
} from '../../../core/model-catalog';
import { DEFAULT_MEDIA_SETTINGS } from '../../../engine/stage-settings';
import { CliUsageError } from '../cli-args';

export interface ServeArgs {
  help: boolean;
  host: string;
  port: number;
  models: string | null;
  model: string;
  /** The translation model, loaded on the first request that asks for translation. */
  translationModel: string;
  segmentationModel: string;
  embeddingModel: string;
  maxUploadMb: number;
  /** Transcriptions run at once. */
  concurrency: number;
  /** Requests that may wait for a free transcription; beyond it, 429. */
  queue: number;
  auth: boolean;
  /** Longest media accepted (413 beyond), checked from the probe before decoding. */
  maxDurationMinutes: number;
  /** Most audio channels accepted (413 beyond). */
  maxChannels: number;
  /** The longest silence tolerated from a client or a media URL (headers, body, download). */
  idleTimeoutSeconds: number;
  /** The longest an upload or a media URL's download may take in all. */
  requestTimeoutSeconds: number;
  /** After SIGTERM, how long the requests in flight may take before they are cancelled. */
  shutdownGraceSeconds: number;
  /** The folder the server owns for uploads (null: `murmur-serve` in the system's). */
  uploadDir: string | null;
  /** Let audio_url and webhook_url reach loopback and private addresses. */
  allowPrivateUrls: boolean;
  /** Async jobs that may wait for a worker; beyond them, 429. */
  maxQueued: number;
  /** How long a finished async job's result is kept (hours; fractions allowed). */
  keepResultsHours: number;
  /** The Redis that holds the async jobs' queue (null: jobs run in this process). */
  redis: string | null;
  /** With `redis`: the folder every server and worker mounts, where jobs' files wait. */
  store: string | null;
  /** With `redis`: how many times a job is run before it ends in `error`. */
  attempts: number;
  /** Decoded audio this long or longer goes to a scratch file rather than memory (seconds). */
  audioInMemorySeconds: number;
}

export const SERVE_DEFAULTS: Omit<ServeArgs, 'help'> = {
  host: '127.0.0.1',
  port: 8080,
  models: null,
  model: DEFAULT_WHISPER,
  translationModel: DEFAULT_TRANSLATION_MODEL,
  segmentationModel: DEFAULT_SEGMENTATION_MODEL,
  embeddingModel: DEFAULT_EMBEDDING_MODEL,
  maxUploadMb: 512,
  concurrency: 1,
  queue: 8,
  auth: true,
  maxDurationMinutes: 120,
  maxChannels: 2,
  idleTimeoutSeconds: 30,
  requestTimeoutSeconds: 300,
  shutdownGraceSeconds: 30,
  uploadDir: null,
  allowPrivateUrls: false,
  maxQueued: 100,
  keepResultsHours: 24,
  redis: null,
  store: null,
  attempts: 3,
  audioInMemorySeconds: DEFAULT_MEDIA_SETTINGS.compactFromSeconds,
};

function wholeNumber(name: string, value: string, min: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new CliUsageError(`--${name} must be a whole number of at least ${min}; got "${value}".`);
  }
  return Number(value);
}

function positiveNumber(name: string, value: string): number {
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

/**
 * `murmur serve [--host H] [--port P] [--models DIR|URL] [--model ID] [--translation-model ID]
 * [--max-upload-mb N] [--max-duration-minutes N] [--max-channels N] [--idle-timeout-seconds N]
 * [--request-timeout-seconds N] [--shutdown-grace-seconds N] [--upload-dir DIR]
 * [--concurrency N] [--queue N] [--max-queued N] [--keep-results-hours H] [--redis URL --store DIR]
 * [--attempts N] [--audio-in-memory-seconds N] [--no-auth] [--allow-private-urls]`. Unknown options are errors: a server that starts
 * with a typo in its limits would run with limits nobody chose.
 */
export function parseServeArgs(argv: readonly string[]): ServeArgs {
  const args: ServeArgs = { help: false, ...SERVE_DEFAULTS };
  const rest = [...argv];
  while (rest.length > 0) {
    const arg = rest.shift() as string;
    if (arg === '--help' || arg === '-h') return { ...args, help: true };
    if (arg === '--no-auth') {
      args.auth = false;
      continue;
    }
    if (arg === '--allow-private-urls') {
      args.allowPrivateUrls = true;
      continue;
    }
    if (!arg.startsWith('--')) throw new CliUsageError(`serve takes no "${arg}".`);
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const value = eq === -1 ? rest.shift() : arg.slice(eq + 1);
    if (value === undefined) throw new CliUsageError(`--${name} needs a value.`);
    switch (name) {
      case 'host':
        args.host = value;
        break;
      case 'port':
        args.port = wholeNumber(name, value, 0);
        if (args.port > 65535) throw new CliUsageError(`--port must be at most 65535.`);
        break;
      case 'models':
        args.models = value;
        break;
      case 'model':
        args.model = value;
        break;
      case 'translation-model':
        args.translationModel = value;
        break;
      case 'segmentation-model':
        args.segmentationModel = value;
        break;
      case 'embedding-model':
        args.embeddingModel = value;
        break;
      case 'max-upload-mb':
        args.maxUploadMb = wholeNumber(name, value, 1);
        break;
      case 'concurrency':
        args.concurrency = wholeNumber(name, value, 1);
        break;
      case 'queue':
        args.queue = wholeNumber(name, value, 0);
        break;
      case 'max-duration-minutes':
        args.maxDurationMinutes = wholeNumber(name, value, 1);
        break;
      case 'max-channels':
        args.maxChannels = wholeNumber(name, value, 1);
        break;
      case 'idle-timeout-seconds':
        args.idleTimeoutSeconds = wholeNumber(name, value, 1);
        break;
      case 'request-timeout-seconds':
        args.requestTimeoutSeconds = wholeNumber(name, value, 1);
        break;
      case 'shutdown-grace-seconds':
        args.shutdownGraceSeconds = wholeNumber(name, value, 0);
        break;
      case 'upload-dir':
        args.uploadDir = value;
        break;
      case 'max-queued':
        args.maxQueued = wholeNumber(name, value, 0);
        break;
      case 'keep-results-hours':
        args.keepResultsHours = positiveNumber(name, value);
        break;
      case 'redis':
        args.redis = redisUrl(name, value);
        break;
      case 'store':
        args.store = value;
        break;
      case 'attempts':
        args.attempts = wholeNumber(name, value, 1);
        break;
      case 'audio-in-memory-seconds':
        args.audioInMemorySeconds = wholeNumber(name, value, 0);
        break;
      default:
        throw new CliUsageError(`Unknown serve option --${name}.`);
    }
  }
  // A queue across machines needs a folder they all read; one without the other is half a setup.
  if ((args.redis === null) !== (args.store === null)) {
    throw new CliUsageError(
      "--redis and --store go together (the queue, and the folder its jobs' files wait in).",
    );
  }
  if (args.redis === null && argv.some((a) => a === '--attempts' || a.startsWith('--attempts='))) {
    throw new CliUsageError('--attempts needs --redis (jobs in memory are run once).');
  }
  return args;
}

/** Service keys from `MURMUR_SERVICE_KEYS` (comma-separated); empty entries are dropped. */
export function serviceKeys(env: string | undefined): Set<string> {
  return new Set(
    (env ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter((k) => k !== ''),
  );
}
