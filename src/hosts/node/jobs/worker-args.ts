import {
  DEFAULT_EMBEDDING_MODEL,
  DEFAULT_SEGMENTATION_MODEL,
  DEFAULT_TRANSLATION_MODEL,
  DEFAULT_WHISPER,
} from '../../../core/model-catalog';
import { DEFAULT_MEDIA_SETTINGS } from '../../../engine/stage-settings';
import { CliUsageError } from '../cli-args';
import { redisUrl } from '../server/serve-args';

export interface WorkerArgs {
  help: boolean;
  redis: string;
  store: string;
  models: string | null;
  model: string;
  translationModel: string;
  segmentationModel: string;
  embeddingModel: string;
  /** The limits a job runs under, as `murmur serve` has them. */
  maxUploadMb: number;
  maxDurationMinutes: number;
  maxChannels: number;
  idleTimeoutSeconds: number;
  requestTimeoutSeconds: number;
  allowPrivateUrls: boolean;
  /** How long a job's lock lasts unrenewed: a worker silent this long is taken for dead. */
  lockSeconds: number;
  /** How often workers look for jobs whose worker is dead. */
  stalledCheckSeconds: number;
  /** Times a job's worker may die under it before the job ends in error. */
  maxStalls: number;
  /** `HOST:PORT` to serve `/metrics` on (port 0: any free one); null: none. */
  metrics: string | null;
  /** Decoded audio this long or longer goes to a scratch file rather than memory (seconds). */
  audioInMemorySeconds: number;
}

export const WORKER_DEFAULTS: Omit<WorkerArgs, 'help' | 'redis' | 'store'> = {
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
  lockSeconds: 30,
  stalledCheckSeconds: 30,
  maxStalls: 1,
  metrics: null,
  audioInMemorySeconds: DEFAULT_MEDIA_SETTINGS.compactFromSeconds,
};

function wholeNumber(name: string, value: string, min: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new CliUsageError(`--${name} must be a whole number of at least ${min}; got "${value}".`);
  }
  return Number(value);
}

/**
 * `murmur worker --redis URL --store DIR [--models DIR|URL] [--model ID] [--translation-model ID]
 * [--segmentation-model ID] [--embedding-model ID] [--max-upload-mb N] [--max-duration-minutes N]
 * [--max-channels N] [--idle-timeout-seconds N] [--request-timeout-seconds N]
 * [--allow-private-urls] [--lock-seconds N] [--stalled-check-seconds N] [--max-stalls N]
 * [--audio-in-memory-seconds N] [--metrics HOST:PORT]`.
 */
export function parseWorkerArgs(argv: readonly string[]): WorkerArgs {
  const args: Omit<WorkerArgs, 'redis' | 'store'> & { redis: string | null; store: string | null } =
    {
      help: false,
      redis: null,
      store: null,
      ...WORKER_DEFAULTS,
    };
  const rest = [...argv];
  while (rest.length > 0) {
    const arg = rest.shift() as string;
    if (arg === '--help' || arg === '-h') return { ...args, redis: '', store: '', help: true };
    if (arg === '--allow-private-urls') {
      args.allowPrivateUrls = true;
      continue;
    }
    if (!arg.startsWith('--')) throw new CliUsageError(`worker takes no "${arg}".`);
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const value = eq === -1 ? rest.shift() : arg.slice(eq + 1);
    if (value === undefined) throw new CliUsageError(`--${name} needs a value.`);
    switch (name) {
      case 'redis':
        args.redis = redisUrl(name, value);
        break;
      case 'store':
        args.store = value;
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
      case 'lock-seconds':
        args.lockSeconds = wholeNumber(name, value, 1);
        break;
      case 'stalled-check-seconds':
        args.stalledCheckSeconds = wholeNumber(name, value, 1);
        break;
      case 'metrics':
        if (!/^[^\s:]+:\d{1,5}$/.test(value) || Number(value.split(':').pop()) > 65535) {
          throw new CliUsageError(
            `--metrics must be HOST:PORT (e.g. 0.0.0.0:9464); got "${value}".`,
          );
        }
        args.metrics = value;
        break;
      case 'max-stalls':
        args.maxStalls = wholeNumber(name, value, 0);
        break;
      case 'audio-in-memory-seconds':
        args.audioInMemorySeconds = wholeNumber(name, value, 0);
        break;
      default:
        throw new CliUsageError(`Unknown worker option --${name}.`);
    }
  }
  if (args.redis === null || args.store === null) {
    throw new CliUsageError(
      "worker needs --redis URL (the queue) and --store DIR (the folder servers put jobs' files in).",
    );
  }
  return { ...args, redis: args.redis, store: args.store };
}
