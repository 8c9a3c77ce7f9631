import { createServer } from 'node:http';
import multipart from '@fastify/multipart';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { newRequestId } from '../../../core/contract/errors';
import { JobMetrics } from '../job-runtime/job-metrics';
import type { QueueHealth } from '../job-runtime/job-queue';
import { WebhookSender } from '../job-runtime/webhook-sender';
import { Admission } from './admission';
import { answerClientError } from './client-errors';
import { formCheck, keyCheck } from './auth';
import { healthRoutes } from './health-routes';
import { jobRoutes } from './job-routes';
import { requestLog } from './request-log';
import { errorAnswers, fromRouterError, sendError } from './send-error';
import type { ServerSettings, ServerState } from './server-settings';
import { stopServer, stopping } from './shutdown';
import { transcriptionRoutes } from './transcription-routes';
import { FORM_OVERHEAD_BYTES } from './upload';
import { UploadBudget } from './upload-budget';

export type { ServerSettings } from './server-settings';

export interface MurmurServer {
  app: FastifyInstance;
  /**
   * Stops taking requests (new ones get 503), gives those in flight the grace period to finish
   * (then cancels them, each answered with the error body), delivers their webhooks within
   * what is left of it, then closes.
   */
  stop(): Promise<void>;
}

/**
 * The longest path parameter (a job's id) the router passes to its route, which answers an id
 * it does not know with 404: longer than a request line can be (the headers' 16 KB), so that
 * no id is refused by the router with a body of its own.
 */
const MAX_PARAM_CHARS = 16 * 1024 + 1;

export async function buildServer(settings: ServerSettings): Promise<MurmurServer> {
  const app = Fastify({
    // Node's own clock for the headers (checked every second, not every 30 s); the body's
    // limits are the upload reader's, which answers with the error body.
    serverFactory: (handler) =>
      createServer(
        {
          headersTimeout: settings.idleSeconds * 1000,
          requestTimeout: 0,
          connectionsCheckingInterval: 1000,
        },
        handler,
      ),
    clientErrorHandler: answerClientError(settings.idleSeconds),
    logger: settings.logger,
    // One line per request, written by the request log, instead of Fastify's two.
    logController: new LogController({
      disableRequestLogging: true,
      requestIdLogLabel: 'request_id',
    }),
    genReqId: () => newRequestId(),
    // The service answers its own 503 (with the error body) while it stops.
    return503OnClosing: false,
    bodyLimit: FORM_OVERHEAD_BYTES,
    routerOptions: { maxParamLength: MAX_PARAM_CHARS },
    frameworkErrors: (error, request, reply) => sendError(request, reply, fromRouterError(error)),
  });

  const admission = new Admission(settings.concurrency, settings.queue);
  // The gauges read the queue when scraped, by which time it exists.
  const metrics: JobMetrics = new JobMetrics((): Promise<QueueHealth> => jobs.queue.health());
  settings.decodedAudio?.register(metrics.registry);
  const webhooks = new WebhookSender(settings, (outcome) => metrics.webhook(outcome));
  const jobs = settings.jobs({ slots: admission, webhooks, metrics, log: app.log });
  jobs.queue.onEvent((event) => metrics.jobEvent(event));
  jobs.queue.onEvent((event) =>
    app.log.info(
      {
        request_id: event.requestId,
        job_id: event.id,
        event: event.event,
        ...(event.message ? { message: event.message } : {}),
      },
      'job',
    ),
  );
  const checkKey = keyCheck(settings.keys);
  const state: ServerState = {
    settings,
    admission,
    // As much as the places' own files: disk for uploads is at most twice that in all.
    uploadBudget: new UploadBudget(
      settings.maxUploadBytes * (settings.concurrency + settings.queue),
    ),
    metrics,
    webhooks,
    jobs,
    inFlight: new Map(),
    checkKey,
    checkForm: formCheck(checkKey, settings.maxUploadBytes),
  };
  const stop = stopping();

  await app.register(multipart);
  await app.register(requestLog);
  await app.register(stop.plugin);
  await app.register(errorAnswers);
  await app.register(healthRoutes, state);
  await app.register(transcriptionRoutes, state);
  await app.register(jobRoutes, state);
  return { app, stop: () => stopServer(app, state, stop.ask) };
}
