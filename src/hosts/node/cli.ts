import type { NodeEngineSettings } from './engine-ports';
import { CliUsageError, parseCliArgs, type CliArgs } from './cli-args';
import {
  alignHelp,
  isCommand,
  overviewHelp,
  transcribeHelp,
  unknownCommand,
  type Command,
} from './help';
import { CHECK_USAGE, runCheck } from './check-command';
import { EXPORT_USAGE, runExport } from './export-command';
import { parseServeArgs } from './server/serve-args';
import { serveHelp } from './server/serve-help';
import { workerHelp } from './jobs/worker-help';
import { serve } from './serve-command';
import { transcribe } from './transcribe-command';
import { parseWorkerArgs } from './jobs/worker-args';
import { runWorker } from './jobs/worker';
import { runVoices } from './voices-command';
import { voicesHelp } from './voices-help';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export interface CliOptions {
  /** Aborted when the user interrupts (Ctrl-C, SIGTERM): the `cancelled` error body is printed. */
  signal?: AbortSignal;
  /** Engine settings beside those of the command line (tests shorten the URL time-out). */
  engine?: Pick<NodeEngineSettings, 'fetchTimeoutSeconds'>;
}

/** Each command's own help, for `murmur COMMAND --help` and `murmur help COMMAND`. */
const HELP: Record<Command, () => string> = {
  transcribe: transcribeHelp,
  align: alignHelp,
  export: () => EXPORT_USAGE,
  check: () => CHECK_USAGE,
  serve: serveHelp,
  worker: workerHelp,
  voices: voicesHelp,
};

/**
 * Runs the CLI and returns its exit status: 0 success, 2 request problem, 1 other failure
 * (for `check`: 1 when findings remain). A bare `murmur` asked for nothing: the overview goes
 * to stderr with status 2, as for any other command line that cannot be run.
 */
export async function main(
  argv: readonly string[],
  io: CliIo,
  options: CliOptions = {},
): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    io.stderr(overviewHelp());
    return 2;
  }
  let args: CliArgs;
  try {
    if (first === '--help' || first === '-h' || (first === 'help' && rest.length === 0)) {
      io.stdout(overviewHelp());
      return 0;
    }
    if (first === 'help') {
      const topic = rest[0] as string;
      if (!isCommand(topic) || rest.length > 1)
        throw new CliUsageError(
          rest.length > 1 ? 'help takes one COMMAND.' : unknownCommand(topic),
        );
      io.stdout(HELP[topic]());
      return 0;
    }
    if (first === 'export') return await runExport(rest, io, options.signal);
    if (first === 'check') return await runCheck(rest, io);
    if (first === 'voices') return await runVoices(rest, io, options);
    if (first === 'serve') {
      const serveArgs = parseServeArgs(rest);
      if (serveArgs.help) {
        io.stdout(serveHelp());
        return 0;
      }
      return await serve(serveArgs, io);
    }
    if (first === 'worker') {
      const workerArgs = parseWorkerArgs(rest);
      if (workerArgs.help) {
        io.stdout(workerHelp());
        return 0;
      }
      return await runWorker(workerArgs, io);
    }
    args = parseCliArgs(argv);
  } catch (e) {
    if (!(e instanceof CliUsageError)) throw e;
    const help = isCommand(first) ? `murmur ${first} --help` : 'murmur --help';
    io.stderr(`murmur: ${e.message} See "${help}".\n`);
    return 2;
  }
  if (args.help) {
    io.stdout(HELP[args.command]());
    return 0;
  }
  return transcribe(args, io, options);
}
