import type { NodeEngineSettings } from './engine-ports';
import { CliUsageError, parseCliArgs, type CliArgs } from './cli-args';
import { helpText } from './help';
import { runCheck } from './check-command';
import { runExport } from './export-command';
import { parseServeArgs } from './server/serve-args';
import { serve } from './server/serve';
import { transcribe } from './transcribe-command';
import { parseWorkerArgs } from './jobs/worker-args';
import { runWorker } from './jobs/worker';

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

/**
 * Runs the CLI and returns its exit status: 0 success, 2 request problem, 1 other failure
 * (for `check`: 1 when findings remain).
 */
export async function main(
  argv: readonly string[],
  io: CliIo,
  options: CliOptions = {},
): Promise<number> {
  let args: CliArgs;
  try {
    if (argv[0] === 'export') return await runExport(argv.slice(1), io);
    if (argv[0] === 'check') return await runCheck(argv.slice(1), io);
    if (argv[0] === 'serve') {
      const serveArgs = parseServeArgs(argv.slice(1));
      if (serveArgs.help) {
        io.stdout(helpText());
        return 0;
      }
      return await serve(serveArgs, io);
    }
    if (argv[0] === 'worker') {
      const workerArgs = parseWorkerArgs(argv.slice(1));
      if (workerArgs.help) {
        io.stdout(helpText());
        return 0;
      }
      return await runWorker(workerArgs, io);
    }
    args = parseCliArgs(argv);
  } catch (e) {
    if (!(e instanceof CliUsageError)) throw e;
    io.stderr(`murmur: ${e.message} See "murmur --help".\n`);
    return 2;
  }
  if (args.command === 'help') {
    io.stdout(helpText());
    return 0;
  }
  return transcribe(args, io, options);
}
