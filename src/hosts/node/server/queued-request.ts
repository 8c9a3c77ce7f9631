import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Endpoint } from '../../../core/contract/endpoints';
import { ServiceError, isErrorCode, type ErrorBody } from '../../../core/contract/errors';
import { fieldsFromRecord, parseRequestOrThrow } from '../../../core/contract/parse-request';
import { jobFailure, type JobOutcome } from '../../../engine/job/job';
import { QueueFullError, type JobEnd, type JobQueue } from '../job-runtime/job-queue';
import { checkUrlAddress } from '../job-runtime/media-download';
import type { DiskFile } from '../media-file';
import type { ServerState } from './server-settings';
import { readUpload, uploadLimits } from './upload';

/** The error a finished job's body stands for, so that the request answers with it. */
function errorOf(body: ErrorBody): ServiceError {
  const code = isErrorCode(body.error) ? body.error : 'internal_error';
  return new ServiceError(code, body.message, body.field_errors);
}

/**
 * Waits for a job's end (the queue's event); when `signal` aborts first (the client went away,
 * the server stops), cancels the job and throws.
 */
async function waitForEnd(queue: JobQueue, id: string, signal: AbortSignal): Promise<JobEnd> {
  let end: JobEnd | null;
  try {
    end = await queue.ended(id, signal);
  } catch (thrown) {
    if (!signal.aborted) throw thrown;
    await queue.cancel(id).catch(() => undefined);
    throw new ServiceError('cancelled', 'The transcription was cancelled.');
  }
  if (end === null) {
    throw new ServiceError(
      'internal_error',
      `The job ${id} of this request is gone from the queue.`,
    );
  }
  return end;
}

/**
 * A synchronous request answered by a job on the queue, which any worker takes: the form is
 * read into a folder of the store and checked here (a wrong request is refused at once, with
 * the same body as when the server runs it), then queued (429 past the queue's limit), and the
 * request waits for the job's end. Its answer is the job's response or error body, as the
 * server's own run would give; the webhook (the synchronous endpoints' payload) is delivered by
 * the caller, after the answer, as for a run here. A request whose client goes away, or that
 * the server cancels, cancels its job.
 */
export async function answerThroughQueue(
  { settings, jobs }: ServerState,
  endpoint: Endpoint,
  request: FastifyRequest,
  reply: FastifyReply,
  signal: AbortSignal,
): Promise<JobOutcome<DiskFile>> {
  const job = { requestId: request.id, signal };
  const id = randomUUID();
  let folder: string | null = null;
  let queued = false;
  let notices: string[] = [];
  try {
    folder = await jobs.folder(id);
    const form = await readUpload(request, folder, uploadLimits(settings), signal);
    const parsed = parseRequestOrThrow(fieldsFromRecord(form.strings, form.files), endpoint);
    notices = [...parsed.notices];
    // The webhook goes out from here, so its address is checked here, as the server's run does.
    if (parsed.webhook_url !== null) {
      checkUrlAddress(parsed.webhook_url, 'webhook_url', settings.allowPrivateUrls);
    }
    await jobs.queue.submit({
      id,
      requestId: request.id,
      endpoint,
      strings: { ...form.strings },
      files: { ...form.files },
      folder,
      // The runner delivers no webhook of its own: the request's goes out after its answer.
      webhookUrl: null,
      createdAt: new Date().toISOString(),
    });
    queued = true;
    const end = await waitForEnd(jobs.queue, id, signal);
    // The result went out in the answer; nothing of it is kept.
    void jobs.queue.forget?.(id).catch(() => undefined);
    if (end.status !== 'done') throw errorOf(end.error);
    // Its webhook is the caller's to send, after the answer.
    return { ok: true, request: parsed, response: end.result, notices, deliver: null };
  } catch (thrown) {
    if (thrown instanceof QueueFullError) {
      reply.header('retry-after', String(thrown.retryAfterSeconds));
    }
    return { ...jobFailure(endpoint, thrown, job), notices };
  } finally {
    // A queued job's files are its runner's, which removes them when the job ends.
    if (folder !== null && !queued) await rm(folder, { recursive: true, force: true });
  }
}
