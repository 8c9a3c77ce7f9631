import type { Socket } from 'node:net';
import {
  ServiceError,
  errorBody,
  newRequestId,
  type ErrorCode,
} from '../../../core/contract/errors';
import { shortened } from '../../../core/contract/quoted';

/** What Node could not read as a request, as the service's error. */
function clientError(error: { code?: string }, idleSeconds: number): ServiceError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ServiceError(
        'request_timeout',
        `The request headers did not arrive within ${idleSeconds} s, so the connection was closed.`,
      );
    case 'HPE_HEADER_OVERFLOW':
      return new ServiceError(
        'headers_too_large',
        'The request headers are larger than this service reads (16 KB in all).',
      );
    default:
      return new ServiceError('bad_request', 'The request cannot be read as HTTP.');
  }
}

const REASONS: Partial<Record<ErrorCode, string>> = {
  bad_request: 'Bad Request',
  request_timeout: 'Request Timeout',
  headers_too_large: 'Request Header Fields Too Large',
};

/**
 * Fastify's `clientErrorHandler`: requests that never reach a route (headers too large or too
 * slow, bytes that are not HTTP) are answered with the error body too, not Node's bare status
 * line, and the connection is closed.
 */
export function answerClientError(idleSeconds: number) {
  return (error: Error & { code?: string }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const failure = clientError(error, idleSeconds);
    // The path of the request line, when Node kept the bytes it could not parse.
    const line = (error as { rawPacket?: Buffer }).rawPacket?.toString('latin1') ?? '';
    const path = shortened(/^[A-Z]+ (\/[^\s?]*)/.exec(line)?.[1] ?? '');
    const id = newRequestId();
    const body = JSON.stringify(errorBody(failure, { path, requestId: id, now: new Date() }));
    socket.end(
      `HTTP/1.1 ${failure.status} ${REASONS[failure.code] ?? 'Error'}\r\n` +
        'content-type: application/json; charset=utf-8\r\n' +
        `content-length: ${Buffer.byteLength(body)}\r\n` +
        `x-request-id: ${id}\r\n` +
        'connection: close\r\n\r\n' +
        body,
    );
  };
}
