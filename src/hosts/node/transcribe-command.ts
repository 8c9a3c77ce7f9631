import { progressLines } from './progress-lines';
import { readFile, stat } from 'node:fs/promises';
import { scriptSizeProblem, scriptText } from '../../core/alignment/script';
import { ENDPOINTS } from '../../core/contract/endpoints';
import { ServiceError, isClientError, newRequestId } from '../../core/contract/errors';
import type { DeliveryEvent } from '../../core/webhook/delivery';
import { readableCues } from '../../core/format/readable-cues';
import { renderReadableSrt, renderReadableVtt } from '../../core/format/readable-subtitles';
import { jobFailure, runJob, type JobHost, type JobOutcome } from '../../engine/job/job';
import type { CliIo, CliOptions } from './cli';
import type { CliArgs } from './cli-args';
import { cliErrorLines } from './cli-wording';
import { cliPageLink } from './cli-page-link';
import { downloadLines } from './download-lines';
import { diskFile, type DiskFile } from './media-file';
import { EngineThread } from './server/engine-thread';
import { readVoicesAt, VoicesOnDiskError } from './job-runtime/voices-on-disk';
import type { Voice } from '../../core/voices/voice';
import { nodeDeliveryFetch } from './webhook-fetch';
import { signerFromEnv } from './webhook-signature';

/**
 * `murmur transcribe FILE [fields]`: one transcription, its answer on stdout, its notes on
 * stderr. `murmur align MEDIA TEXT [fields]`: the same, the words being those of TEXT.
 */

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

/**
 * `--voices FILE.json`, read; a file that cannot be used is refused as the request's problem,
 * naming the file.
 */
async function readVoices(path: string | null): Promise<Voice[] | null> {
  if (path === null) return null;
  try {
    return await readVoicesAt(path);
  } catch (thrown) {
    if (!(thrown instanceof VoicesOnDiskError)) throw thrown;
    throw new ServiceError('invalid_request', thrown.message, [
      { field: 'voices', message: thrown.message },
    ]);
  }
}

/** Voices name the speakers diarization finds: without it they would silently do nothing. */
export const VOICES_NEED_DIARIZATION =
  'voices needs --toggle_diarization true: voices name the speakers that diarization finds.';

/** The CLI's file, read from disk, as the field of its endpoint. */
async function readFiles(args: CliArgs): Promise<Record<string, DiskFile>> {
  const { fileField } = ENDPOINTS[args.endpoint];
  if (args.file === null) return {};
  const file = await diskFile(args.file);
  if (file === null) {
    const message = `No readable file at "${args.file}".`;
    throw new ServiceError('invalid_request', message, [{ field: fileField, message }]);
  }
  return { [fileField]: file };
}

/**
 * `murmur align`'s text file, read: its size first (a file too large for a script is not read),
 * then its bytes, refused when they are not text.
 */
async function readScript(path: string): Promise<string> {
  const unreadable = () => {
    const message = `No readable text file at "${path}".`;
    return new ServiceError('invalid_request', message, [{ field: 'script', message }]);
  };
  const size = await stat(path).then(
    (s) => s.size,
    () => null,
  );
  if (size === null) throw unreadable();
  const large = scriptSizeProblem(size);
  if (large !== null) throw new ServiceError('invalid_request', large.message, [large]);
  const bytes = await readFile(path).catch(() => null);
  if (bytes === null) throw unreadable();
  const read = scriptText(bytes);
  if ('problem' in read)
    throw new ServiceError('invalid_request', read.problem.message, [read.problem]);
  return read.text;
}

/** A speaker close to a stored voice, but not close enough to be given its name. */
export function nearMissLine(speaker: string, name: string): string {
  return `${speaker} may be ${name}: the voice is close, not close enough to name them.`;
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

/** Whether models come from a model host (the hub by default), not from a folder. */
const fromHost = (models: string | null) => models === null || /^https?:\/\//.test(models);

/** Runs one transcription and returns the exit status: 0 success, 2 request problem, 1 other. */
export async function transcribe(args: CliArgs, io: CliIo, options: CliOptions): Promise<number> {
  let signer: ReturnType<typeof signerFromEnv>;
  try {
    signer = signerFromEnv(process.env.MURMUR_WEBHOOK_SECRET);
  } catch (thrown) {
    io.stderr(`murmur: MURMUR_WEBHOOK_SECRET: ${(thrown as Error).message}\n`);
    return 2;
  }
  // The pipeline runs on a thread of its own: on this one, a model run or a long stage written
  // in JS held a signal unheard for seconds, and a result finished meanwhile was printed. Here
  // nothing but the answer is done, so Ctrl-C is heard at once, whatever stage is running.
  const engine = new EngineThread(
    {
      ...options.engine,
      models: args.models,
      model: args.model,
      translationModel: args.translationModel,
      segmentationModel: args.segmentationModel,
      embeddingModel: args.embeddingModel,
    },
    { yieldToCaller: false, loadFirst: false },
  );
  try {
    return await transcribeOn(engine, args, io, options, signer);
  } finally {
    if (!options.signal?.aborted) await engine.close();
  }
}

async function transcribeOn(
  engine: EngineThread,
  args: CliArgs,
  io: CliIo,
  options: CliOptions,
  signer: ReturnType<typeof signerFromEnv>,
): Promise<number> {
  const job = { requestId: newRequestId(), ...(options.signal ? { signal: options.signal } : {}) };
  const page = cliPageLink(args.ytDlp, args.endpoint, options.engine?.fetchTimeoutSeconds);
  try {
    return await answer(engine, args, io, options, signer, job, page);
  } finally {
    await page.close();
  }
}

async function answer(
  engine: EngineThread,
  args: CliArgs,
  io: CliIo,
  options: CliOptions,
  signer: ReturnType<typeof signerFromEnv>,
  job: { requestId: string; signal?: AbortSignal },
  page: ReturnType<typeof cliPageLink>,
): Promise<number> {
  const host: JobHost<DiskFile> = {
    // A link to a web page is read with yt-dlp first; a media file's is fetched by the pipeline.
    // Voices name the speakers diarization finds: without it they would be dropped unseen.
    prepare: async (request, signal) => {
      if (args.voices !== null && !request.toggle_diarization)
        throw new ServiceError('invalid_request', VOICES_NEED_DIARIZATION, [
          { field: 'voices', message: VOICES_NEED_DIARIZATION },
        ]);
      return page.prepare(request, signal);
    },
    annotate: page.annotate,
    engine: async () => engine,
    // Signed as the service signs them, when a secret is set.
    webhook: { fetch: nodeDeliveryFetch, ...(signer ? { signer } : {}) },
  };
  let outcome: JobOutcome<DiskFile>;
  try {
    // A step that cannot stop at once (a model run) is not waited for: the answer is printed now.
    outcome = await untilAborted(
      (async () => {
        const voices = await readVoices(args.voices);
        if (voices !== null) host.voices = voices;
        const fields = {
          endpoint: args.endpoint,
          strings: args.fields,
          files: await readFiles(args),
          ...(args.script === null ? {} : { script: await readScript(args.script) }),
        };
        return runJob(fields, host, job, {
          onNotice: (notice) => io.stderr(`murmur: note: ${notice}\n`),
          // A near miss is the user's to judge: told here, never put in the response.
          ...(args.voices === null
            ? {}
            : {
                onSpeakers: ({ recognitions }) => {
                  for (const r of recognitions)
                    if (!r.sure) io.stderr(`murmur: note: ${nearMissLine(r.speaker, r.name)}\n`);
                },
              }),
          // --progress tells every stage; without it, only a model's download is told, and
          // models read from a folder are not downloaded.
          ...(args.progress
            ? { onProgress: progressLines(io.stderr, !fromHost(args.models)) }
            : fromHost(args.models)
              ? { onProgress: downloadLines(io.stderr) }
              : {}),
        });
      })(),
      options.signal,
    );
    // A signal that came with the result wins: it is heard before anything is printed.
    await new Promise((resolve) => setImmediate(resolve));
    options.signal?.throwIfAborted();
  } catch (thrown) {
    outcome = jobFailure(args.endpoint, thrown, job);
  }
  if (!outcome.ok) {
    io.stdout(`${JSON.stringify(outcome.body, null, 2)}\n`);
    for (const line of cliErrorLines(outcome.error, args.endpoint)) io.stderr(`murmur: ${line}\n`);
    return isClientError(outcome.error.code) ? 2 : 1;
  }
  const { response, request, deliver } = outcome;
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
    io.stdout(
      args.subtitles === 'srt'
        ? renderReadableSrt(cues)
        : renderReadableVtt(cues, response.prediction_raw.transcription),
    );
    const fast = cues.filter((c) => c.tooFast).length;
    if (fast > 0) {
      io.stderr(
        `murmur: note: ${fast} cue${fast === 1 ? '' : 's'} read faster than ${args.cueLimits.maxCharsPerSecond} characters a second (the speech is that fast).\n`,
      );
    }
  }
  // The transcription succeeded; a webhook that fails does not change that (exit 0). Its fate
  // is told on stderr only.
  const url = request.webhook_url;
  if (deliver && url !== null) {
    await deliver((event) => io.stderr(`murmur: ${deliveryLine(url, event)}\n`));
  }
  return 0;
}
