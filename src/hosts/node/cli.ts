import { ENDPOINTS } from '../../core/contract/endpoints';
import {
  ServiceError,
  errorBody,
  isClientError,
  newRequestId,
  toServiceError,
} from '../../core/contract/errors';
import { fieldsFromRecord, parseRequestOrThrow } from '../../core/contract/parse-request';
import type { TranscriptionRequest } from '../../core/contract/request';
import type { TranscriptionResponse } from '../../core/contract/response';
import { deliverWebhook, type DeliveryEvent } from '../../core/webhook/delivery';
import { webhookPayload } from '../../core/webhook/payload';
import { readableCues } from '../../core/format/readable-cues';
import { renderReadableSrt, renderReadableVtt } from '../../core/format/readable-subtitles';
import { runPipeline } from '../../engine/pipeline';
import { nodeEnginePorts, type NodeEngineSettings } from './engine-ports';
import { CliUsageError, parseCliArgs, type CliArgs } from './cli-args';
import { cliErrorLines } from './cli-wording';
import { helpText } from './help';
import { runExport } from './export-command';
import { diskFile, type DiskFile } from './media-file';
import { parseServeArgs } from './server/serve-args';
import { serve } from './server/serve';
import { nodeDeliveryFetch } from './webhook-fetch';

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

async function readRequest(args: CliArgs): Promise<TranscriptionRequest<DiskFile>> {
  const { fileField } = ENDPOINTS[args.endpoint];
  const files: Record<string, DiskFile> = {};
  if (args.file !== null) {
    const file = await diskFile(args.file);
    if (file === null) {
      const message = `No readable file at "${args.file}".`;
      throw new ServiceError('invalid_request', message, [{ field: fileField, message }]);
    }
    files[fileField] = file;
  }
  return parseRequestOrThrow(fieldsFromRecord(args.fields, files), args.endpoint);
}

function deliveryLine(url: string, event: DeliveryEvent): string {
  switch (event.kind) {
    case 'sending':
      return `webhook: sending the result to ${url} (try ${event.attempt} of ${event.tries})`;
    case 'retrying':
      return `webhook: try ${event.attempt} failed: ${event.reason} Next try in ${event.pauseMs / 1000} s.`;
    case 'delivered':
      return `webhook: delivered (${event.status}) on try ${event.attempt}`;
    case 'failed':
      return `webhook: not delivered after ${event.attempt} tr${event.attempt === 1 ? 'y' : 'ies'}: ${event.reason}`;
  }
}

/** The response goes to the webhook after it is printed; its fate is told on stderr only. */
async function deliver(url: string, requestId: string, response: TranscriptionResponse, io: CliIo) {
  await deliverWebhook(url, webhookPayload(requestId, response), {
    fetch: nodeDeliveryFetch,
    onEvent: (event) => io.stderr(`murmur: ${deliveryLine(url, event)}\n`),
  });
}

/** Runs the CLI and returns its exit status: 0 success, 2 request problem, 1 other failure. */
export async function main(
  argv: readonly string[],
  io: CliIo,
  options: CliOptions = {},
): Promise<number> {
  let args: CliArgs;
  try {
    if (argv[0] === 'export') return await runExport(argv.slice(1), io);
    if (argv[0] === 'serve') {
      const serveArgs = parseServeArgs(argv.slice(1));
      if (serveArgs.help) {
        io.stdout(helpText());
        return 0;
      }
      return await serve(serveArgs, io);
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
  const requestId = newRequestId();
  let webhook: string | null = null;
  let response: TranscriptionResponse;
  try {
    // A step that cannot stop at once (a model run) is not waited for: the answer is printed now.
    response = await untilAborted(
      (async () => {
        const request = await readRequest(args);
        for (const notice of request.notices) io.stderr(`murmur: note: ${notice}\n`);
        webhook = request.webhook_url;
        const ports = nodeEnginePorts({
          ...options.engine,
          models: args.models,
          model: args.model,
          translationModel: args.translationModel,
          segmentationModel: args.segmentationModel,
          embeddingModel: args.embeddingModel,
        });
        return runPipeline(request, ports, options.signal ? { signal: options.signal } : {});
      })(),
      options.signal,
    );
  } catch (thrown) {
    const error = toServiceError(thrown);
    const body = errorBody(error, {
      path: ENDPOINTS[args.endpoint].path,
      requestId,
      now: new Date(),
    });
    io.stdout(`${JSON.stringify(body, null, 2)}\n`);
    for (const line of cliErrorLines(error, args.endpoint)) io.stderr(`murmur: ${line}\n`);
    return isClientError(error.code) ? 2 : 1;
  }
  if (args.subtitles === null) {
    io.stdout(`${JSON.stringify(response, null, 2)}\n`);
  } else {
    // Readable subtitles are built from the response's words, so `prediction` keeps the
    // service's one-entry-per-segment layout whatever is printed here.
    const cues = readableCues(
      response.prediction_raw.transcription,
      args.cueLimits,
      response.prediction_raw.metadata.provided_file_metadata.duration,
    );
    io.stdout(args.subtitles === 'srt' ? renderReadableSrt(cues) : renderReadableVtt(cues));
    const fast = cues.filter((c) => c.tooFast).length;
    if (fast > 0) {
      io.stderr(
        `murmur: note: ${fast} cue${fast === 1 ? '' : 's'} read faster than ${args.cueLimits.maxCharsPerSecond} characters a second (the speech is that fast).\n`,
      );
    }
  }
  // The transcription succeeded; a webhook that fails does not change that (exit 0).
  if (webhook !== null) await deliver(webhook, requestId, response, io);
  return 0;
}
