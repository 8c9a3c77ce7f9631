import { ENDPOINTS } from '../../core/contract/endpoints';
import {
  ServiceError,
  errorBody,
  isClientError,
  newRequestId,
  toServiceError,
} from '../../core/contract/errors';
import { fieldsFromRecord, parseRequestOrThrow } from '../../core/contract/parse-request';
import type { TranscriptionResponse } from '../../core/contract/response';
import { readableCues } from '../../core/format/readable-cues';
import { renderReadableSrt, renderReadableVtt } from '../../core/format/readable-subtitles';
import { runPipeline } from '../../engine/pipeline';
import { nodeEnginePorts } from './engine-ports';
import { CliUsageError, parseCliArgs, type CliArgs } from './cli-args';
import { helpText } from './help';
import { diskFile, type DiskFile } from './media-file';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

async function transcribe(args: CliArgs): Promise<TranscriptionResponse> {
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
  return runPipeline(request, nodeEnginePorts({ models: args.models, model: args.model }));
}

/** Runs the CLI and returns its exit status: 0 success, 2 request problem, 1 other failure. */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
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
    const response = await transcribe(args);
    if (args.subtitles === null) {
      io.stdout(`${JSON.stringify(response, null, 2)}\n`);
    } else {
      // Readable subtitles are built from the response's words, so `prediction` keeps the
      // service's one-entry-per-segment layout whatever is printed here.
      const cues = readableCues(response.prediction_raw.transcription, args.cueLimits);
      io.stdout(args.subtitles === 'srt' ? renderReadableSrt(cues) : renderReadableVtt(cues));
      const fast = cues.filter((c) => c.tooFast).length;
      if (fast > 0) {
        io.stderr(
          `murmur: note: ${fast} cue${fast === 1 ? '' : 's'} read faster than ${args.cueLimits.maxCharsPerSecond} characters a second (the speech is that fast).\n`,
        );
      }
    }
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
