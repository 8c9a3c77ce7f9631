import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ERROR_CODES } from '../../../core/contract/errors';
import type { TranscriptionResponse } from '../../../core/contract/response';
import { pathOf } from './send-error';
import { shared } from './shared-plugin';

/** What the log line of a request carries beyond its status. */
export interface RequestNotes {
  stages?: Record<string, unknown>;
  notices?: string[];
  error?: { code: string; message: string };
}
const notes = new WeakMap<FastifyRequest, RequestNotes>();
const started = new WeakMap<FastifyRequest, number>();
const logged = new WeakSet<FastifyRequest>();

/** Adds to what the request's log line will carry. */
export function noteRequest(request: FastifyRequest, more: RequestNotes): void {
  notes.set(request, { ...notes.get(request), ...more });
}

/** What each stage took, for the request's log line. */
export function stageTimes(response: TranscriptionResponse): Record<string, unknown> {
  const metadata = response.prediction_raw.metadata;
  return Object.fromEntries(Object.entries(metadata).filter(([name]) => name.endsWith('_time')));
}

function logRequest(request: FastifyRequest, status: number, seconds: number) {
  if (logged.has(request)) return;
  logged.add(request);
  const extra = notes.get(request) ?? {};
  request.log.info(
    {
      method: request.method,
      path: pathOf(request),
      status,
      seconds: Number(seconds.toFixed(3)),
      ...(extra.stages ? { stages: extra.stages } : {}),
      ...(extra.notices?.length ? { notices: extra.notices } : {}),
      ...(extra.error ? { error: extra.error } : {}),
    },
    'request',
  );
}

/** The line of a request whose client went away: no response, so it says 499 (cancelled). */
export function logCancelled(request: FastifyRequest): void {
  const seconds = (performance.now() - (started.get(request) ?? performance.now())) / 1000;
  logRequest(request, ERROR_CODES.cancelled.status, seconds);
}

/** One log line per request, with its status, time, stages, notices and error. */
export const requestLog = shared(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (request) => void started.set(request, performance.now()));
  app.addHook('onResponse', async (request, reply) =>
    logRequest(request, reply.statusCode, reply.elapsedTime / 1000),
  );
  // A client that went away gets no response, so no onResponse.
  app.addHook('onRequestAbort', async (request) => logCancelled(request));
});
