import type { FastifyServerOptions } from 'fastify';
import type { JobSettings } from '../job-runtime/job-host';
import type { JobMetrics } from '../job-runtime/job-metrics';
import type { ServerJobs, ServerJobsFactory } from '../job-runtime/server-jobs';
import type { WebhookSender } from '../job-runtime/webhook-sender';
import type { Admission } from './admission';
import type { RequestCheck } from './auth';
import type { UploadBudget } from './upload-budget';
import type { UploadFolders } from './upload-folders';

export interface ServerSettings extends JobSettings {
  /** Accepted `x-service-key` values; null: no key is asked for. */
  keys: ReadonlySet<string> | null;
  /** After `stop()`, how long requests in flight may take before they are cancelled. */
  graceSeconds: number;
  concurrency: number;
  queue: number;
  version: string;
  /** Fastify's logger option: pino settings, or false for none. */
  logger: FastifyServerOptions['logger'];
  /** Where each request's files go (opened, and swept, before the server is built). */
  uploads: UploadFolders;
  /** Async jobs that may wait (429 beyond), and how long their results are kept. */
  maxQueued: number;
  keepResultsHours: number;
  /**
   * The queue of async jobs and where their files go, made once the server's slots exist: in
   * this process (`memoryJobs`), or on a queue in Redis that workers on other machines take
   * from, with a folder they all mount (`--redis`).
   */
  jobs: ServerJobsFactory;
}

/** What the server's plugins share: its places, its disk budget, its queue and its counts. */
export interface ServerState {
  settings: ServerSettings;
  admission: Admission;
  uploadBudget: UploadBudget;
  metrics: JobMetrics;
  webhooks: WebhookSender;
  jobs: ServerJobs;
  /** The transcription requests being answered, and the means to cancel each. */
  inFlight: Map<AbortController, Promise<unknown>>;
  checkKey: RequestCheck;
  /** The key, then the declared size: what a form is checked for before anything is done. */
  checkForm: RequestCheck;
}
