import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ENDPOINTS } from '../../../core/contract/endpoints';
import { ServiceError, errorBody, toServiceError } from '../../../core/contract/errors';
import { shortened } from '../../../core/contract/quoted';
import { noteRequest } from './request-log';
import { shared } from './shared-plugin';

/** The request's path, as answers and log lines repeat it: never more than its start. */
export function pathOf(request: FastifyRequest): string {
  return shortened(request.url.split('?')[0] ?? request.url);
}

/** Answers `request` with the spec's error body for `error`. */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: ServiceError) {
  const body = errorBody(error, {
    path: pathOf(request),
    requestId: request.id,
    now: new Date(),
  });
  // The log line says what failed, not only the status.
  noteRequest(request, { error: { code: error.code, message: error.message } });
  // A body that was not read to its end cannot be followed by another request on this connection.
  if (!request.raw.readableEnded) reply.header('connection', 'close');
  return reply.code(error.status).header('x-request-id', request.id).send(body);
}

/** Fastify's own failures (bodies it cannot read, content types it does not parse). */
function fromFastifyError(error: { statusCode?: number; code?: string; message: string }) {
  if (error instanceof ServiceError) return error;
  const status = error.statusCode ?? 500;
  if (status === 413) return new ServiceError('payload_too_large', error.message);
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return new ServiceError(
      'bad_request',
      'The request must be multipart/form-data (with its boundary), as the service interface says.',
    );
  }
  // Its own words may repeat what it was sent: at most their start.
  if (status >= 400 && status < 500) {
    return new ServiceError('bad_request', shortened(error.message, 200));
  }
  return toServiceError(error);
}

/**
 * What the router refuses before any route or hook sees the request (a path it cannot decode),
 * as the service's error, so that these too get the error body and no echo of the path.
 */
export function fromRouterError(error: { code?: string }): ServiceError {
  if (error.code === 'FST_ERR_BAD_URL') {
    return new ServiceError(
      'bad_request',
      'The path cannot be read: a % in it must be followed by two hexadecimal digits.',
    );
  }
  return new ServiceError('bad_request', 'The path cannot be read.');
}

/** Every failure, and every path the service has no endpoint for, answered with the error body. */
export const errorAnswers = shared(async (app: FastifyInstance) => {
  app.setErrorHandler((error, request, reply) =>
    sendError(request, reply, fromFastifyError(error as never)),
  );
  app.setNotFoundHandler((request, reply) =>
    sendError(
      request,
      reply,
      new ServiceError(
        'not_found',
        `No endpoint ${request.method} ${pathOf(request)}. The service has POST ${ENDPOINTS.audio.path} and POST ${ENDPOINTS.video.path}; see /docs.`,
      ),
    ),
  );
});
