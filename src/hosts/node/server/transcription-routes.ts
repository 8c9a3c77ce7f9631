import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ENDPOINTS, type Endpoint } from '../../../core/contract/endpoints';
import { ServiceError } from '../../../core/contract/errors';
import { answerHere } from './local-answer';
import { answerThroughQueue } from './queued-request';
import { logCancelled, noteRequest, stageTimes } from './request-log';
import { sendError } from './send-error';
import type { ServerState } from './server-settings';

/**
 * The spec's routes, `POST /v1/audio/transcriptions` and `POST /v1/video/transcriptions`: run
 * here, or, with a queue whose jobs run elsewhere, as a job a worker runs while the request
 * waits. The response goes out, then its webhook.
 */
export async function transcriptionRoutes(app: FastifyInstance, state: ServerState) {
  const { jobs, webhooks, inFlight } = state;

  /** With jobs run elsewhere, this server runs no transcription of its own. */
  const answerElsewhere = async (
    endpoint: Endpoint,
    request: FastifyRequest,
    reply: FastifyReply,
    controller: AbortController,
  ) => {
    const outcome = await answerThroughQueue(state, endpoint, request, reply, controller.signal);
    const stages = outcome.ok ? stageTimes(outcome.response) : undefined;
    noteRequest(request, { notices: outcome.notices, ...(stages ? { stages } : {}) });
    return outcome;
  };

  const transcribe =
    (endpoint: Endpoint) => async (request: FastifyRequest, reply: FastifyReply) => {
      const controller = new AbortController();
      // A client that goes away cancels its work, waiting or running.
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) controller.abort();
      });
      const work = jobs.elsewhere
        ? answerElsewhere(endpoint, request, reply, controller)
        : answerHere(state, endpoint, request, reply, controller);
      inFlight.set(controller, work);
      try {
        const outcome = await work;
        if (outcome.ok) {
          // Delivered after the answer went out; `stop()` waits for deliveries within its grace.
          const url = outcome.request.webhook_url;
          webhooks.response(url, request.id, outcome.response, {
            onEvent: (event) => {
              if (event.kind === 'retrying')
                request.log.warn({ webhook: { url, ...event } }, 'webhook retry');
            },
            onDelivered: (delivered) => request.log.info({ webhook: delivered }, 'webhook'),
          });
        }
        // A reply to a closed socket never finishes, so onResponse would not log it.
        if (controller.signal.aborted && !(controller.signal.reason instanceof ServiceError)) {
          logCancelled(request);
        }
        if (!outcome.ok) return sendError(request, reply, outcome.error);
        for (const notice of outcome.notices) reply.header('x-murmur-notice', notice);
        return reply.code(200).header('x-request-id', request.id).send(outcome.response);
      } finally {
        inFlight.delete(controller);
      }
    };

  for (const endpoint of ['audio', 'video'] as const) {
    app.post(ENDPOINTS[endpoint].path, { onRequest: state.checkForm }, transcribe(endpoint));
  }
}
