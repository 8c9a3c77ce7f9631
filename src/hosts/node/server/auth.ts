import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../../../core/contract/errors';
import { sendError } from './send-error';
import { declaredTooLarge } from './upload';

/** A check run before a route's handler: it answers (and so ends) the request, or lets it on. */
export type RequestCheck = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

function keyMatches(keys: ReadonlySet<string>, given: string): boolean {
  const candidate = Buffer.from(given);
  let found = false;
  // Every key is compared, in constant time, so timing tells nothing of which keys exist.
  for (const key of keys) {
    const known = Buffer.from(key);
    if (known.length === candidate.length && timingSafeEqual(known, candidate)) found = true;
  }
  return found;
}

/** The `x-service-key` check (401) under the accepted `keys`; null: no key is asked for. */
export function keyCheck(keys: ReadonlySet<string> | null): RequestCheck {
  return async (request, reply) => {
    if (keys === null) return;
    const given = request.headers['x-service-key'];
    if (typeof given !== 'string' || given === '') {
      return sendError(
        request,
        reply,
        new ServiceError('unauthorized', 'The x-service-key header is missing.'),
      );
    }
    if (!keyMatches(keys, given)) {
      return sendError(
        request,
        reply,
        new ServiceError('unauthorized', 'The x-service-key is not a key of this service.'),
      );
    }
  };
}

/**
 * What is checked before a transcription request is admitted, in this order: its key (401),
 * then its declared size (413), so that neither waits for a place nor is told the service is
 * busy (429) when it would be refused anyway.
 */
export function formCheck(checkKey: RequestCheck, maxUploadBytes: number): RequestCheck {
  return async (request, reply) => {
    const refused = await checkKey(request, reply);
    if (refused !== undefined) return refused;
    const tooLarge = declaredTooLarge(request.headers, maxUploadBytes);
    if (tooLarge !== null) return sendError(request, reply, tooLarge);
  };
}
