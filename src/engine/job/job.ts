import type { MediaLimits } from '../../core/audio/media-limits';
import { ENDPOINTS, type Endpoint } from '../../core/contract/endpoints';
import {
  ServiceError,
  errorBody,
  toServiceError,
  type ErrorBody,
} from '../../core/contract/errors';
import { parseScript, scriptProblems, type Script } from '../../core/alignment/script';
import { fieldsFromRecord, parseRequestOrThrow } from '../../core/contract/parse-request';
import type { MediaFile, TranscriptionRequest } from '../../core/contract/request';
import type { Segment, TranscriptionResponse } from '../../core/contract/response';
import type { ProvisionalSegment } from '../../core/assemble/provisional-segment';
import type { SpeakerTurn } from '../../core/assemble/speakers';
import {
  deliverWebhook,
  type DeliveryEvent,
  type DeliveryFetch,
  type DeliveryOutcome,
  type DeliveryPolicy,
  type DeliverySigner,
} from '../../core/webhook/delivery';
import { webhookPayload } from '../../core/webhook/payload';
import { runPipeline, type PipelineOptions } from '../pipeline';
import type { EnginePorts } from '../ports';
import type { StageProgress } from '../stage-context';
import type { StageSettingsOverrides } from '../stage-settings';
import type { DecodedAudioHeld } from '../streams/decoded-media';
import type { Voice } from '../../core/voices/voice';

/**
 * One transcription from the request's fields to the spec's response or its error body, and the
 * response's webhook delivery. Every host runs requests through this (the CLI, the HTTP server,
 * the page's worker, and whatever comes next); a host only carries fields in and answers out,
 * and says through `JobHost` what differs where it runs.
 */

/** A request's multipart fields as a host has them, for one endpoint. */
export interface JobFields<F extends MediaFile> {
  endpoint: Endpoint;
  strings: Readonly<Record<string, string>>;
  files: Readonly<Record<string, F>>;
  /**
   * The text that was said, when the user has it (a script, notes, or subtitles with wrong
   * times): the job times its words to the media instead of giving what it recognised.
   */
  script?: string;
}

/**
 * An engine that runs the pipeline where it lives rather than on the caller's thread (a server's
 * slot on a worker thread of its own): the request and the pipeline's options in, the response
 * out; events are passed on as they come, and the signal cancels the run.
 */
export interface PipelineRunner {
  runPipeline<F extends MediaFile>(
    request: TranscriptionRequest<F>,
    options: PipelineOptions,
  ): Promise<TranscriptionResponse>;
}

/** What a job runs on: ports it runs the pipeline on here, or a runner that runs it elsewhere. */
export type JobEngine = EnginePorts | PipelineRunner;

/** What the host running a job provides. */
export interface JobHost<F extends MediaFile> {
  /**
   * The engine the job runs on, once it may run (a server waits here for a free slot). Called
   * again for a second run when `retry` asks for one.
   */
  engine(signal: AbortSignal | undefined): Promise<JobEngine>;
  /**
   * The host's own checks and preparations of a parsed request, before it waits for an engine
   * (a server checks the webhook's address and downloads an `audio_url` to disk here).
   */
  prepare?(
    request: TranscriptionRequest<F>,
    signal: AbortSignal | undefined,
    /** Told when the host downloads the request's media (the `download` stage). */
    onDownload?: (detail: string) => void,
  ): Promise<TranscriptionRequest<F>>;
  /**
   * What the host adds to the response of a request it prepared (the web page a link led to),
   * before it is answered or delivered.
   */
  annotate?(response: TranscriptionResponse): TranscriptionResponse;
  /** What the host lets one request cost (duration, channels); none by default. */
  limits?: MediaLimits;
  /**
   * What the host changes of the stages' default settings (`PipelineOptions.settings`): a
   * server's `media.compactFromSeconds`, from which audio goes to its scratch file.
   */
  settings?: StageSettingsOverrides;
  /**
   * Stored voices that name the speakers of a request with diarization on
   * (`PipelineOptions.voices`): the operator's, on a server; none by default.
   */
  voices?: readonly Voice[];
  /** Told what the run's decoded audio holds in memory (`PipelineOptions.onDecodedAudio`). */
  onDecodedAudio?: (held: DecodedAudioHeld) => void;
  /**
   * Whether a run that failed with `thrown` is worth one more (a browser whose GPU went away
   * runs again on the CPU): the notice to give the user, or null for no second run.
   */
  retry?(thrown: unknown): Promise<string | null>;
  /** How the host reaches webhook receivers; without it the job delivers nothing. */
  webhook?: {
    fetch: DeliveryFetch;
    policy?: DeliveryPolicy;
    explainNetworkFailure?: (url: string, error: unknown) => string;
    /** A signer for one delivery (each delivery has its own id, kept on every try). */
    signer?: () => DeliverySigner;
  };
}

/** What a job tells while it runs. */
export interface JobEvents {
  onProgress?: StageProgress;
  /** A notice of the request (a field that was ignored, a device that changed). */
  onNotice?: (notice: string) => void;
  /** Each segment as soon as it is decoded (before speakers are known). */
  onSegment?: (segment: Segment) => void;
  /** The window being decoded, before its checks (`PipelineOptions.onProvisional`). */
  onProvisional?: (segments: ProvisionalSegment[]) => void;
  onSpeakerTurns?: (turns: SpeakerTurn[]) => void;
  /** The speakers found and those voices recognised (`PipelineOptions.onSpeakers`). */
  onSpeakers?: PipelineOptions['onSpeakers'];
}

export type JobOutcome<F extends MediaFile> = JobDone<F> | JobFailed;

export interface JobDone<F extends MediaFile> {
  ok: true;
  request: TranscriptionRequest<F>;
  response: TranscriptionResponse;
  /** The request's notices, and those of the run (a second run's reason). */
  notices: string[];
  /**
   * Sends the response to the request's `webhook_url` (the payload the reference service
   * sends), or null when the request has none or the host delivers none. The host chooses when
   * (after its answer went out) and keeps the promise where it must wait for it (on shutdown).
   */
  deliver: ((onEvent?: (event: DeliveryEvent) => void) => Promise<DeliveryOutcome>) | null;
}

export interface JobFailed {
  ok: false;
  error: ServiceError;
  /** The spec's error body for this request. */
  body: ErrorBody;
  /** What was thrown, for hosts that tell a broken runtime from a failed request. */
  cause: unknown;
  /** The request's notices when it was parsed before it failed. */
  notices: string[];
}

export interface JobOptions {
  /** The request's id: in its error body, its webhook payload and the host's logs. */
  requestId: string;
  signal?: AbortSignal;
  /** When the job is answered, for the error body (tests fix it). */
  now?: () => Date;
}

export async function runJob<F extends MediaFile>(
  fields: JobFields<F>,
  host: JobHost<F>,
  options: JobOptions,
  events: JobEvents = {},
): Promise<JobOutcome<F>> {
  const { signal, requestId } = options;
  const notices: string[] = [];
  const notice = (text: string) => {
    notices.push(text);
    events.onNotice?.(text);
  };
  try {
    events.onProgress?.('validate', null, 'Checking the request');
    const parsed = parseRequestOrThrow(
      fieldsFromRecord(fields.strings, fields.files),
      fields.endpoint,
    );
    for (const text of parsed.notices) notice(text);
    const script = fields.script === undefined ? null : scriptOrThrow(fields.script);
    const request = host.prepare
      ? await host.prepare(parsed, signal, (detail) =>
          events.onProgress?.('download', null, detail),
        )
      : parsed;
    const run = async () => {
      const engine = await host.engine(signal);
      const pipelineOptions: PipelineOptions = {
        ...(signal ? { signal } : {}),
        ...(host.limits ? { limits: host.limits } : {}),
        ...(host.settings ? { settings: host.settings } : {}),
        ...(host.onDecodedAudio ? { onDecodedAudio: host.onDecodedAudio } : {}),
        ...(events.onProgress ? { onProgress: events.onProgress } : {}),
        ...(events.onSegment ? { onSegment: events.onSegment } : {}),
        ...(events.onProvisional ? { onProvisional: events.onProvisional } : {}),
        ...(events.onSpeakerTurns ? { onSpeakerTurns: events.onSpeakerTurns } : {}),
        ...(events.onSpeakers ? { onSpeakers: events.onSpeakers } : {}),
        ...(host.voices && host.voices.length > 0 ? { voices: host.voices } : {}),
        ...(script ? { script } : {}),
      };
      return 'runPipeline' in engine
        ? engine.runPipeline(request, pipelineOptions)
        : runPipeline(request, engine, pipelineOptions);
    };
    let response: TranscriptionResponse;
    try {
      response = await run();
    } catch (thrown) {
      const reason = signal?.aborted ? null : await host.retry?.(thrown);
      if (!reason) throw thrown;
      notice(reason);
      response = await run();
    }
    if (host.annotate) response = host.annotate(response);
    return {
      ok: true,
      request,
      response,
      notices,
      deliver: webhookDelivery(request.webhook_url, requestId, response, host),
    };
  } catch (thrown) {
    return { ...jobFailure(fields.endpoint, thrown, options), notices };
  }
}

/** A script to align, read; one without a word is refused, naming it. */
function scriptOrThrow(text: string): Script {
  const problems = scriptProblems(text);
  if (problems.length > 0)
    throw new ServiceError('invalid_request', problems[0]!.message, problems);
  return parseScript(text);
}

/**
 * A request that failed, as a job answers it: for failures a host meets before the job starts
 * (a file it cannot read, a full queue), so that every answer has the same body.
 */
export function jobFailure(endpoint: Endpoint, thrown: unknown, options: JobOptions): JobFailed {
  // A cancellation by the host (a server that stops) carries its own error.
  const reason: unknown = options.signal?.aborted ? options.signal.reason : undefined;
  const error = reason instanceof ServiceError ? reason : toServiceError(thrown);
  const now = options.now?.() ?? new Date();
  const path = ENDPOINTS[endpoint].path;
  const body = errorBody(error, { path, requestId: options.requestId, now });
  return { ok: false, error, body, cause: thrown, notices: [] };
}

/**
 * The delivery of a response to a request's `webhook_url`, for a job's outcome, or null when
 * there is nothing to deliver (also for a host that got the response from elsewhere, such as a
 * server whose job ran on a worker).
 */
export function webhookDelivery<F extends MediaFile>(
  url: string | null,
  requestId: string,
  response: TranscriptionResponse,
  host: Pick<JobHost<F>, 'webhook'>,
): JobDone<F>['deliver'] {
  const webhook = host.webhook;
  if (url === null || !webhook) return null;
  return (onEvent) =>
    deliverWebhook(url, webhookPayload(requestId, response), {
      fetch: webhook.fetch,
      ...(webhook.policy ? { policy: webhook.policy } : {}),
      ...(webhook.explainNetworkFailure
        ? { explainNetworkFailure: webhook.explainNetworkFailure }
        : {}),
      ...(webhook.signer ? { sign: webhook.signer() } : {}),
      ...(onEvent ? { onEvent } : {}),
    });
}
