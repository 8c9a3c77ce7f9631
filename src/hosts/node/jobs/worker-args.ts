import { CliUsageError, unknownOption } from '../cli-args';
import {
  JOB_ARG_DEFAULTS,
  JOB_OPTIONS,
  readJobOption,
  redisUrl,
  wholeNumber,
  type JobArgs,
} from '../job-runtime/job-args';

export interface WorkerArgs extends JobArgs {
  help: boolean;
  redis: string;
  store: string;
  /** How long a job's lock lasts unrenewed: a worker silent this long is taken for dead. */
  lockSeconds: number;
  /** How often workers look for jobs whose worker is dead. */
  stalledCheckSeconds: number;
  /** Times a job's worker may die under it before the job ends in error. */
  maxStalls: number;
  /** `HOST:PORT` to serve `/metrics` on (port 0: any free one); null: none. */
  metrics: string | null;
}

export const WORKER_DEFAULTS: Omit<WorkerArgs, 'help' | 'redis' | 'store'> = {
  ...JOB_ARG_DEFAULTS,
  lockSeconds: 30,
  stalledCheckSeconds: 30,
  maxStalls: 1,
  metrics: null,
};

/** The options of `murmur worker`. */
const WORKER_OPTIONS = [
  ...JOB_OPTIONS,
  'help',
  'allow-private-urls',
  'redis',
  'store',
  'lock-seconds',
  'stalled-check-seconds',
  'metrics',
  'max-stalls',
];

/**
 * `murmur worker --redis URL --store DIR [--models DIR|URL] [--model ID] [--translation-model ID]
 * [--segmentation-model ID] [--embedding-model ID] [--max-upload-mb N] [--max-duration-minutes N]
 * [--max-channels N] [--idle-timeout-seconds N] [--request-timeout-seconds N]
 * [--allow-private-urls] [--yt-dlp PATH] [--lock-seconds N] [--stalled-check-seconds N] [--max-stalls N]
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
    if (!WORKER_OPTIONS.includes(name))
      throw new CliUsageError(unknownOption(name, WORKER_OPTIONS));
    const value = eq === -1 ? rest.shift() : arg.slice(eq + 1);
    if (value === undefined) throw new CliUsageError(`--${name} needs a value.`);
    if (readJobOption(args, name, value)) continue;
    switch (name) {
      case 'redis':
        args.redis = redisUrl(name, value);
        break;
      case 'store':
        args.store = value;
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
      default:
        throw new CliUsageError(unknownOption(name, WORKER_OPTIONS));
    }
  }
  if (args.redis === null || args.store === null) {
    throw new CliUsageError(
      "worker needs --redis URL (the queue) and --store DIR (the folder servers put jobs' files in).",
    );
  }
  return { ...args, redis: args.redis, store: args.store };
}
