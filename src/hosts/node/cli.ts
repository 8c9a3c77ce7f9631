import { ENDPOINTS } from '../../core/contract/endpoints';
import {
  ServiceError,
  errorBody,
  isClientError,
  newRequestId,
  toServiceError,
} from '../../core/contract/errors';
import { fieldsFromRecord, parseRequestOrThrow } from '../../core/contract/parse-request';
import { runPipeline } from '../../engine/pipeline';
import { nodeEnginePorts, type NodeEngineSettings } from './engine-ports';
import { CliUsageError, parseCliArgs, type CliArgs } from './cli-args';
import { helpText } from './help';
import { diskFile, type DiskFile } from './media-file';

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

/** Rejects with an `AbortError` as soon as `signal` aborts, whatever `work` is doing. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () =>
      reject(new DOMException('The transcription was cancelled.', 'AbortError'));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

async function transcribe(args: CliArgs, options: CliOptions): Promise<unknown> {
  const { fileField } = ENDPOINTS[args.endpoint];
  const files: Record<string, DiskFile> = {};
  if (args.file !== null) {
    const file = await diskFile(args.file);
    if (file === null) {
      throw new ServiceError('invalid_request', `No readable file at "${args.file}".`, [
        { field: fileField, message: `${fileField}: no readable file at "${args.file}".` },
      ]);
    }
    files[fileField] = file;
  }
  const request = parseRequestOrThrow(fieldsFromRecord(args.fields, files), args.endpoint);
  for (const notice of request.notices) process.stderr.write(`murmur: note: ${notice}\n`);
  const ports = nodeEnginePorts({ ...options.engine, models: args.models, model: args.model });
  return runPipeline(request, ports, options.signal ? { signal: options.signal } : {});
}

/** Runs the CLI and returns its exit status: 0 success, 2 request problem, 1 other failure. */
export async function main(
  argv: readonly string[],
  io: CliIo,
  options: CliOptions = {},
): Promise<number> {
  let args: CliArgs;
  try {
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
  try {
    // A step that cannot stop at once (a model run) is not waited for: the answer is printed now.
    const response = await untilAborted(transcribe(args, options), options.signal);
    io.stdout(`${JSON.stringify(response, null, 2)}\n`);
    return 0;
  } catch (thrown) {
    const error = toServiceError(thrown);
    const body = errorBody(error, {
      path: ENDPOINTS[args.endpoint].path,
      requestId: newRequestId(),
      now: new Date(),
    });
    io.stdout(`${JSON.stringify(body, null, 2)}\n`);
    io.stderr(`murmur: ${error.message}\n`);
    return isClientError(error.code) ? 2 : 1;
  }
}
