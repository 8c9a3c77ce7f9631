import { randomUUID, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import multipart from '@fastify/multipart';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { ENDPOINTS, type Endpoint } from '../../../core/contract/endpoints';
import {
  ERROR_CODES,
  ServiceError,
  errorBody,
  newRequestId,
  toServiceError,
} from '../../../core/contract/errors';
import {
  jobFailure,
  runJob,
  type JobDone,
  type JobEngine,
  type JobOutcome,
} from '../../../engine/job/job';
import { openApiDocument } from '../../../core/contract/openapi';
import { shortened } from '../../../core/contract/quoted';
import type { TranscriptionResponse } from '../../../core/contract/response';
import type { DeliveryFetch, DeliveryPolicy, DeliverySigner } from '../../../core/webhook/delivery';
import type { DiskFile } from '../media-file';
import type { JobQueue, QueueHealth } from '../jobs/job-queue';
import { JobMetrics } from '../jobs/job-metrics';
import { runQueuedJob, type JobResult } from '../jobs/job-run';
import { deliverJobWebhook } from '../jobs/job-webhook';
import { MemoryJobQueue } from '../jobs/memory-queue';
import { nodeDeliveryFetch, publicDeliveryFetch } from '../webhook-fetch';
import { Admission, type Ticket } from './admission';
import { answerClientError } from './client-errors';
import { registerJobRoutes } from './job-routes';
import { serverJobHost, type ServerJobSettings } from './job-host';
import { answerThroughQueue } from './queued-request';
import { FORM_OVERHEAD_BYTES, declaredTooLarge, readUpload, uploadLimits } from './upload';
import { UploadBudget } from './upload-budget';
import type { UploadFolders } from './upload-folders';

export interface ServerSettings extends ServerJobSettings {
  /** Accepted `x-service-key` values; null: no key is asked for. */
  keys: ReadonlySet<string> | null;
  maxUploadBytes: number;
  /** Longest media accepted, in seconds, and most channels (413 beyond, from the probe). */
  maxSeconds: number;
  maxChannels: number;
  /** The longest a client or a media URL may send nothing (headers, body, download). */
  idleSeconds: number;
  /** The longest an upload or a media URL's download may take in all. */
  totalSeconds: number;
  /** After `stop()`, how long requests in flight may take before they are cancelled. */
  graceSeconds: number;
  /** Let audio_url and webhook_url reach loopback and private addresses. */
  allowPrivateUrls: boolean;
  concurrency: number;
  queue: number;
  /**
   * One engine per concurrent transcription: `murmur serve` gives each its own worker thread
   * (models, ffmpeg and the pipeline's work there), so that this thread stays free to answer.
   */
  engines: readonly JobEngine[];
  version: string;
  /** Fastify's logger option: pino settings, or false for none. */
  logger: FastifyServerOptions['logger'];
  /** Where each request's files go (opened, and swept, before the server is built). */
  uploads: UploadFolders;
  webhook?: { fetch?: DeliveryFetch; policy?: DeliveryPolicy; signer?: () => DeliverySigner };
  /** Async jobs that may wait (429 beyond), and how long their results are kept. */
  maxQueued: number;
  keepResultsHours: number;
  /**
   * The queue of async jobs and where their files go (`--redis`: a queue that workers on other
   * machines take from, and a folder they all mount); absent, jobs run in this process.
   */
  jobs?: ServerJobs;
}

/** The queue of async jobs and where their files go. */
export interface ServerJobs {
  queue: JobQueue;
  folder: (id: string) => Promise<string>;
}

export interface MurmurServer {
  app: FastifyInstance;
  /**
   * Stops taking requests (new ones get 503), gives those in flight the grace period to finish
   * (then cancels them, each answered with the error body), delivers their webhooks within
   * what is left of it, then closes.
   */
  stop(): Promise<void>;
}

const ICON = new URL('../../../../public/icon.svg', import.meta.url);

/** What the log line of a request carries beyond its status. */
interface RequestNotes {
  stages?: Record<string, unknown>;
  notices?: string[];
  error?: { code: string; message: string };
}
const notes = new WeakMap<FastifyRequest, RequestNotes>();
const started = new WeakMap<FastifyRequest, number>();

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

/** What each stage took, for the request's log line. */
function stageTimes(response: TranscriptionResponse): Record<string, unknown> {
  const metadata = response.prediction_raw.metadata;
  return Object.fromEntries(Object.entries(metadata).filter(([name]) => name.endsWith('_time')));
}

/** The request's path, as answers and log lines repeat it: never more than its start. */
function pathOf(request: FastifyRequest): string {
  return shortened(request.url.split('?')[0] ?? request.url);
}

function sendError(request: FastifyRequest, reply: FastifyReply, error: ServiceError) {
  const body = errorBody(error, {
    path: pathOf(request),
    requestId: request.id,
    now: new Date(),
  });
  // The log line says what failed, not only the status.
  notes.set(request, {
    ...notes.get(request),
    error: { code: error.code, message: error.message },
  });
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
function fromRouterError(error: { code?: string }): ServiceError {
  if (error.code === 'FST_ERR_BAD_URL') {
    return new ServiceError(
      'bad_request',
      'The path cannot be read: a % in it must be followed by two hexadecimal digits.',
    );
  }
  return new ServiceError('bad_request', 'The path cannot be read.');
}

/**
 * The longest path parameter (a job's id) the router passes to its route, which answers an id
 * it does not know with 404: longer than a request line can be (the headers' 16 KB), so that
 * no id is refused by the router with a body of its own.
 */
const MAX_PARAM_CHARS = 16 * 1024 + 1;

export async function buildServer(settings: ServerSettings): Promise<MurmurServer> {
  const admission = new Admission(settings.concurrency, settings.queue);
  // As much as the places' own files: disk for uploads is at most twice that in all.
  const uploadBudget = new UploadBudget(
    settings.maxUploadBytes * (settings.concurrency + settings.queue),
  );
  const deliveries = new Set<Promise<unknown>>();
  /** The transcription requests being answered, and the means to cancel each. */
  const inFlight = new Map<AbortController, Promise<unknown>>();
  let stopping = false;

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
    // One line per request, written by the onResponse hook below, instead of Fastify's two.
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

  // The gauges read the queue when scraped, by which time it exists.
  const metrics: JobMetrics = new JobMetrics((): Promise<QueueHealth> => jobs.queue.health());
  settings.decodedAudio?.register(metrics.registry);
  const jobs: ServerJobs =
    settings.jobs ?? memoryJobs(settings, admission, deliveries, app.log, metrics);

  await app.register(multipart);
  await app.register(swagger, {
    mode: 'static',
    specification: { document: openApiDocument(settings.version) as never },
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // The service's own mark in the page's top bar.
    logo: { type: 'image/svg+xml', content: readFileSync(ICON), href: '/docs', target: '_self' },
  });

  app.addHook('onRequest', async (request) => void started.set(request, performance.now()));
  app.addHook('onRequest', async (request, reply) => {
    if (!stopping) return;
    reply.header('connection', 'close');
    return sendError(
      request,
      reply,
      new ServiceError(
        'engine_unavailable',
        'The service is stopping; send the request again (to another instance).',
      ),
    );
  });

  const logged = new WeakSet<FastifyRequest>();
  const logRequest = (request: FastifyRequest, status: number, seconds: number) => {
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
  };
  app.addHook('onResponse', async (request, reply) =>
    logRequest(request, reply.statusCode, reply.elapsedTime / 1000),
  );
  // A client that went away gets no response, so no onResponse: its line says 499 (cancelled).
  app.addHook('onRequestAbort', async (request) =>
    logRequest(
      request,
      ERROR_CODES.cancelled.status,
      (performance.now() - (started.get(request) ?? performance.now())) / 1000,
    ),
  );

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

  const checkKey = async (request: FastifyRequest, reply: FastifyReply) => {
    if (settings.keys === null) return;
    const given = request.headers['x-service-key'];
    if (typeof given !== 'string' || given === '') {
      return sendError(
        request,
        reply,
        new ServiceError('unauthorized', 'The x-service-key header is missing.'),
      );
    }
    if (!keyMatches(settings.keys, given)) {
      return sendError(
        request,
        reply,
        new ServiceError('unauthorized', 'The x-service-key is not a key of this service.'),
      );
    }
  };

  /**
   * What is checked before a transcription request is admitted, in this order: its key (401),
   * then its declared size (413), so that neither waits for a place nor is told the service is
   * busy (429) when it would be refused anyway.
   */
  const checkRequest = async (request: FastifyRequest, reply: FastifyReply) => {
    const refused = await checkKey(request, reply);
    if (refused !== undefined) return refused;
    const tooLarge = declaredTooLarge(request.headers, settings.maxUploadBytes);
    if (tooLarge !== null) return sendError(request, reply, tooLarge);
  };

  /** Delivers after the answer went out; `stop()` waits for deliveries within its grace. */
  const deliver = (done: JobDone<DiskFile>, request: FastifyRequest) => {
    const url = done.request.webhook_url;
    if (!done.deliver || url === null) return;
    const delivery = done.deliver((event) => {
      if (event.kind === 'retrying')
        request.log.warn({ webhook: { url, ...event } }, 'webhook retry');
    });
    deliveries.add(delivery);
    void delivery.then((outcome) => {
      deliveries.delete(delivery);
      metrics.webhook(outcome);
      request.log.info({ request_id: request.id, webhook: outcome }, 'webhook');
    });
  };

  /** The answer of one transcription request: the job's outcome, or why it never ran. */
  const answer = async (
    endpoint: Endpoint,
    request: FastifyRequest,
    reply: FastifyReply,
    controller: AbortController,
  ): Promise<JobOutcome<DiskFile>> => {
    const job = { requestId: request.id, signal: controller.signal };
    const busy = () => {
      const seconds = admission.retryAfterSeconds();
      const { running, waiting } = admission.load;
      reply.header('retry-after', String(seconds)).header('connection', 'close');
      const message = `The service is busy (${running} transcription${running === 1 ? '' : 's'} running, ${waiting} waiting); try again in ${seconds} s.`;
      return jobFailure(endpoint, new ServiceError('too_many_requests', message), job);
    };
    // Refused before its body is read when it would be refused once read.
    if (!admission.hasRoom()) return busy();
    let dir: string | null = null;
    let ticket: Ticket | null = null;
    try {
      const folder = (dir = await settings.uploads.create());
      const limits = { ...uploadLimits(settings), budget: uploadBudget };
      const form = await readUpload(request, folder, limits, controller.signal);
      // Its place is taken once the upload has arrived: a slow client holds none meanwhile.
      const admitted = (ticket = admission.enter());
      if (admitted === null) return busy();
      // Counted as a job is: queued once admitted, processing once it has an engine, then its
      // end (with --redis it is one).
      metrics.requestEvent('queued');
      const engine = { since: null as number | null };
      const slot = async (signal?: AbortSignal) => {
        const index = await admitted.start(signal);
        engine.since = performance.now();
        metrics.requestEvent('processing');
        return index;
      };
      const host = serverJobHost(settings, endpoint, folder, slot, controller.signal);
      const fields = { endpoint, strings: form.strings, files: form.files };
      const outcome = await runJob(fields, host, job).catch((thrown: unknown) =>
        jobFailure(endpoint, thrown, job),
      );
      const stages = outcome.ok ? stageTimes(outcome.response) : undefined;
      notes.set(request, { notices: outcome.notices, ...(stages ? { stages } : {}) });
      const end = outcome.ok ? 'done' : outcome.error.code === 'cancelled' ? 'cancelled' : 'error';
      metrics.requestEvent(end);
      if (engine.since !== null) {
        const seconds = (performance.now() - engine.since) / 1000;
        metrics.jobEnded(end, seconds, outcome.ok ? outcome.response : undefined);
      }
      if (outcome.ok) deliver(outcome, request);
      return outcome;
    } catch (thrown) {
      if (thrown instanceof ServiceError && thrown.code === 'too_many_requests') {
        reply.header('retry-after', String(admission.retryAfterSeconds()));
      }
      return jobFailure(endpoint, thrown, job);
    } finally {
      ticket?.leave();
      // Gone before the answer goes out: nothing is left behind if the process ends right after.
      if (dir !== null) await rm(dir, { recursive: true, force: true });
    }
  };

  /**
   * With a queue in Redis (`settings.jobs`), a synchronous request is a job that a worker runs
   * while the request waits: this server runs no transcription of its own.
   */
  const answerQueued = async (
    queued: ServerJobs,
    endpoint: Endpoint,
    request: FastifyRequest,
    reply: FastifyReply,
    controller: AbortController,
  ): Promise<JobOutcome<DiskFile>> => {
    const outcome = await answerThroughQueue(
      { ...settings, queue: queued.queue, folder: queued.folder, newJobId: randomUUID },
      endpoint,
      request,
      reply,
      controller.signal,
    );
    const stages = outcome.ok ? stageTimes(outcome.response) : undefined;
    notes.set(request, { notices: outcome.notices, ...(stages ? { stages } : {}) });
    if (outcome.ok) deliver(outcome, request);
    return outcome;
  };

  const transcribe =
    (endpoint: Endpoint) => async (request: FastifyRequest, reply: FastifyReply) => {
      const controller = new AbortController();
      // A client that goes away cancels its work, waiting or running.
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) controller.abort();
      });
      const work = settings.jobs
        ? answerQueued(settings.jobs, endpoint, request, reply, controller)
        : answer(endpoint, request, reply, controller);
      inFlight.set(controller, work);
      try {
        const outcome = await work;
        // A reply to a closed socket never finishes, so onResponse would not log it.
        if (controller.signal.aborted && !(controller.signal.reason instanceof ServiceError)) {
          logRequest(
            request,
            ERROR_CODES.cancelled.status,
            (performance.now() - (started.get(request) ?? performance.now())) / 1000,
          );
        }
        if (!outcome.ok) return sendError(request, reply, outcome.error);
        for (const notice of outcome.notices) reply.header('x-murmur-notice', notice);
        return reply.code(200).header('x-request-id', request.id).send(outcome.response);
      } finally {
        inFlight.delete(controller);
      }
    };

  for (const endpoint of ['audio', 'video'] as const) {
    app.post(ENDPOINTS[endpoint].path, { onRequest: checkRequest }, transcribe(endpoint));
  }

  registerJobRoutes(app, {
    queue: jobs.queue,
    folder: jobs.folder,
    newJobId: randomUUID,
    maxUploadBytes: settings.maxUploadBytes,
    idleSeconds: settings.idleSeconds,
    totalSeconds: settings.totalSeconds,
    allowPrivateUrls: settings.allowPrivateUrls,
    checkKey,
    checkRequest,
    sendError,
  });
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

  app.get('/health', async (request, reply) => {
    const { running, waiting } = admission.load;
    const queue = await jobs.queue.health();
    return reply.code(queue.ok ? 200 : 503).send({
      status: queue.ok ? 'ok' : 'unavailable',
      running,
      waiting,
      uploads: { ...uploadBudget.load, max_bytes: uploadBudget.maxBytes },
      concurrency: settings.concurrency,
      queue: settings.queue,
      ...queue.detail,
    });
  });

  app.get('/metrics', async (_request, reply) =>
    reply.header('content-type', metrics.contentType).send(await metrics.text()),
  );

  app.get('/openapi.json', async (_request, reply) => reply.send(app.swagger()));

  return {
    app,
    async stop() {
      stopping = true;
      const graceEnds = Date.now() + settings.graceSeconds * 1000;
      const rest = () => Math.max(0, graceEnds - Date.now());
      const within = (work: Promise<unknown>) =>
        Promise.race([work, new Promise((resolve) => setTimeout(resolve, rest()).unref())]);
      // The listener stays open meanwhile, so that new requests get 503 rather than a refusal.
      await within(Promise.allSettled([...inFlight.values()]));
      if (inFlight.size > 0) {
        const cancelled = new ServiceError(
          'engine_unavailable',
          `The service stopped before this request finished (${settings.graceSeconds} s after it was asked to stop); send it again.`,
        );
        for (const controller of inFlight.keys()) controller.abort(cancelled);
        await Promise.allSettled([...inFlight.values()]);
      }
      await jobs.queue.close(rest());
      await app.close();
      await within(Promise.allSettled([...deliveries]));
    },
  };
}

/**
 * The embedded queue: async jobs in this process, on the same engines as the synchronous
 * requests (a job waits for a free slot as a request does), their files in the server's upload
 * folder, removed when the job ends.
 */
function memoryJobs(
  settings: ServerSettings,
  admission: Admission,
  deliveries: Set<Promise<unknown>>,
  log: FastifyBaseLogger,
  metrics: JobMetrics,
): ServerJobs {
  const fetch =
    settings.webhook?.fetch ??
    (settings.allowPrivateUrls ? nodeDeliveryFetch : publicDeliveryFetch);
  const queue = new MemoryJobQueue(
    async (job, signal, report) => {
      let held: { slot: number; since: number } | null = null;
      const slot = async (s: AbortSignal | undefined) => {
        const index = await admission.jobSlot(s);
        held = { slot: index, since: performance.now() };
        return index;
      };
      let result: JobResult | undefined;
      try {
        return (result = await runQueuedJob(job, settings, slot, signal, report));
      } finally {
        const h = held as { slot: number; since: number } | null;
        if (h) {
          const seconds = (performance.now() - h.since) / 1000;
          admission.jobLeft(h.slot, seconds);
          if (result) {
            metrics.jobEnded(
              result.status,
              seconds,
              result.status === 'done' ? result.result : undefined,
            );
          }
        }
        await rm(job.folder, { recursive: true, force: true });
      }
    },
    {
      maxQueued: settings.maxQueued,
      concurrency: settings.concurrency,
      keepMs: settings.keepResultsHours * 3600 * 1000,
      onFinished: (job, result) => {
        const delivery = deliverJobWebhook(job, result, {
          fetch,
          ...(settings.webhook?.policy ? { policy: settings.webhook.policy } : {}),
          ...(settings.webhook?.signer ? { signer: settings.webhook.signer } : {}),
        });
        const tracked = delivery.then((outcome) => {
          if (!outcome) return;
          metrics.webhook(outcome);
          log.info({ request_id: job.requestId, job_id: job.id, webhook: outcome }, 'webhook');
        });
        deliveries.add(tracked);
        void tracked.finally(() => deliveries.delete(tracked));
      },
    },
  );
  return { queue, folder: () => settings.uploads.create() };
}
