import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ENDPOINTS, type Endpoint } from '../../../core/contract/endpoints';
import { ServiceError, toServiceError } from '../../../core/contract/errors';
import { fieldsFromRecord, parseRequestOrThrow } from '../../../core/contract/parse-request';
import { quoted } from '../../../core/contract/quoted';
import { JOBS_PATH, QueueFullError } from '../job-runtime/job-queue';
import { checkUrlAddress } from '../job-runtime/media-download';
import { sendError } from './send-error';
import type { ServerState } from './server-settings';
import { readUpload, uploadLimits } from './upload';

/** The endpoint whose fields a form carries: a `video` file or `video_url` makes it video. */
function endpointOf(strings: Record<string, string>, files: Record<string, unknown>): Endpoint {
  const video = ENDPOINTS.video;
  return video.fileField in files || video.urlField in strings ? 'video' : 'audio';
}

/** The address the caller reached this server by, for the `result_url` it is given. */
function baseUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * `POST /v2/transcription` (202 with the job's id at once), `GET /v2/transcription/<id>` (its
 * state, then its result) and `DELETE /v2/transcription/<id>` (cancels it). The form is read and
 * validated before the answer, so a wrong request is refused with the error body at once, as on
 * the synchronous endpoints; only a valid job is queued.
 */
export async function jobRoutes(app: FastifyInstance, state: ServerState) {
  const { settings, checkKey } = state;
  const { queue } = state.jobs;

  app.post(JOBS_PATH, { onRequest: state.checkForm }, async (request, reply) => {
    const id = randomUUID();
    const controller = new AbortController();
    // A client that goes away before the job is taken leaves nothing queued.
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) controller.abort();
    });
    let folder: string | null = null;
    try {
      folder = await state.jobs.folder(id);
      const form = await readUpload(request, folder, uploadLimits(settings), controller.signal);
      const endpoint = endpointOf(form.strings, form.files);
      const parsed = parseRequestOrThrow(fieldsFromRecord(form.strings, form.files), endpoint);
      if (parsed.webhook_url !== null) {
        checkUrlAddress(parsed.webhook_url, 'webhook_url', settings.allowPrivateUrls);
      }
      if (parsed.media.kind === 'url') {
        const field = ENDPOINTS[endpoint].urlField;
        checkUrlAddress(parsed.media.url, field, settings.allowPrivateUrls);
      }
      await queue.submit({
        id,
        requestId: request.id,
        endpoint,
        strings: { ...form.strings },
        files: { ...form.files },
        folder,
        webhookUrl: parsed.webhook_url,
        createdAt: new Date().toISOString(),
      });
      const resultUrl = `${baseUrl(request)}${JOBS_PATH}/${id}`;
      return reply
        .code(202)
        .header('x-request-id', request.id)
        .header('location', resultUrl)
        .send({ id, result_url: resultUrl });
    } catch (thrown) {
      if (folder !== null) await rm(folder, { recursive: true, force: true });
      if (thrown instanceof QueueFullError) {
        reply.header('retry-after', String(thrown.retryAfterSeconds));
      }
      return sendError(request, reply, toServiceError(thrown));
    }
  });

  const unknown = (id: string) =>
    new ServiceError(
      'not_found',
      `No job ${quoted(id)}: never submitted, or its result has expired.`,
    );

  app.get<{ Params: { id: string } }>(
    `${JOBS_PATH}/:id`,
    { onRequest: checkKey },
    async (request, reply) => {
      const view = await queue.get(request.params.id);
      if (view === null) return sendError(request, reply, unknown(request.params.id));
      return reply.send(view);
    },
  );

  app.delete<{ Params: { id: string } }>(
    `${JOBS_PATH}/:id`,
    { onRequest: checkKey },
    async (request, reply) => {
      const view = await queue.cancel(request.params.id);
      if (view === null) return sendError(request, reply, unknown(request.params.id));
      return reply.send(view);
    },
  );
}
