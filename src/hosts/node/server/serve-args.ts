import {
  DEFAULT_EMBEDDING_MODEL,
  DEFAULT_SEGMENTATION_MODEL,
  DEFAULT_TRANSLATION_MODEL,
  DEFAULT_WHISPER,
} from '../../../core/model-catalog';
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
};

function wholeNumber(name: string, value: string, min: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new CliUsageError(`--${name} must be a whole number of at least ${min}; got "${value}".`);
  }
  return Number(value);
}

/**
 * `murmur serve [--host H] [--port P] [--models DIR|URL] [--model ID] [--translation-model ID]
 * [--max-upload-mb N] [--max-duration-minutes N] [--max-channels N] [--idle-timeout-seconds N]
 * [--request-timeout-seconds N] [--shutdown-grace-seconds N] [--upload-dir DIR]
 * [--concurrency N] [--queue N] [--no-auth] [--allow-private-urls]`. Unknown options are errors: a server that starts
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
      default:
        throw new CliUsageError(`Unknown serve option --${name}.`);
    }
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
