import { CliUsageError, unknownOption } from '../cli-args';
import {
  JOB_ARG_DEFAULTS,
  positiveNumber,
  JOB_OPTIONS,
  readJobOption,
  redisUrl,
  wholeNumber,
  type JobArgs,
} from '../job-runtime/job-args';

export interface ServeArgs extends JobArgs {
  help: boolean;
  host: string;
  port: number;
  /** Transcriptions run at once. */
  concurrency: number;
  /** Requests that may wait for a free transcription; beyond it, 429. */
  queue: number;
  auth: boolean;
  /** After SIGTERM, how long the requests in flight may take before they are cancelled. */
  shutdownGraceSeconds: number;
  /** The folder the server owns for uploads (null: `murmur-serve` in the system's). */
  uploadDir: string | null;
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
}

export const SERVE_DEFAULTS: Omit<ServeArgs, 'help'> = {
  host: '127.0.0.1',
  port: 8080,
  ...JOB_ARG_DEFAULTS,
  concurrency: 1,
  queue: 8,
  auth: true,
  shutdownGraceSeconds: 30,
  uploadDir: null,
  maxQueued: 100,
  keepResultsHours: 24,
  redis: null,
  store: null,
  attempts: 3,
};

/** The options of `murmur serve`. */
const SERVE_OPTIONS = [
  ...JOB_OPTIONS,
  'help',
  'no-auth',
  'allow-private-urls',
  'host',
  'port',
  'concurrency',
  'queue',
  'shutdown-grace-seconds',
  'upload-dir',
  'max-queued',
  'keep-results-hours',
  'redis',
  'store',
  'attempts',
];

/**
 * `murmur serve [--host H] [--port P] [--models DIR|URL] [--model ID] [--translation-model ID]
 * [--max-upload-mb N] [--max-duration-minutes N] [--max-channels N] [--idle-timeout-seconds N]
 * [--request-timeout-seconds N] [--shutdown-grace-seconds N] [--upload-dir DIR]
 * [--concurrency N] [--queue N] [--max-queued N] [--keep-results-hours H] [--redis URL --store DIR]
 * [--attempts N] [--audio-in-memory-seconds N] [--no-auth] [--allow-private-urls] [--yt-dlp PATH]`. Unknown options are errors: a server that starts
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
    if (!SERVE_OPTIONS.includes(name)) throw new CliUsageError(unknownOption(name, SERVE_OPTIONS));
    const value = eq === -1 ? rest.shift() : arg.slice(eq + 1);
    if (value === undefined) throw new CliUsageError(`--${name} needs a value.`);
    if (readJobOption(args, name, value)) continue;
    switch (name) {
      case 'host':
        args.host = value;
        break;
      case 'port':
        args.port = wholeNumber(name, value, 0);
        if (args.port > 65535) throw new CliUsageError(`--port must be at most 65535.`);
        break;
      case 'concurrency':
        args.concurrency = wholeNumber(name, value, 1);
        break;
      case 'queue':
        args.queue = wholeNumber(name, value, 0);
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
      default:
        throw new CliUsageError(unknownOption(name, SERVE_OPTIONS));
    }
  }
  // A queue across machines needs a folder they all read; one without the other is half a setup.
  if ((args.redis === null) !== (args.store === null)) {
    throw new CliUsageError(
      "--redis and --store go together (the queue, and the folder its jobs' files wait in).",
    );
  }
  if (args.redis !== null && args.voices !== null) {
    throw new CliUsageError(
      "--voices with --redis is the workers' option: give it to murmur worker, which runs the transcriptions.",
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
