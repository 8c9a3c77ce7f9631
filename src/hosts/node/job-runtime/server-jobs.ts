import type { JobMetrics } from './job-metrics';
import type { JobQueue } from './job-queue';
import type { WebhookSender } from './webhook-sender';

/** The queue of async jobs a server holds, and where their files go. */
export interface ServerJobs {
  queue: JobQueue;
  /** A fresh folder for one job's files, on disk every runner of the queue can read. */
  folder: (id: string) => Promise<string>;
  /**
   * Whether the jobs run elsewhere (workers taking them from Redis): then a synchronous request
   * too is a job on this queue, and the server runs no transcription of its own.
   */
  elsewhere: boolean;
}

/** The server's transcription slots, as async jobs run in its process take them. */
export interface JobSlots {
  /** A slot for a job, once one is free (jobs wait behind the synchronous requests). */
  jobSlot(signal: AbortSignal | undefined): Promise<number>;
  /** Gives the slot back, with how long the job held it. */
  jobLeft(slot: number, seconds: number): void;
}

/** What a server lends the queue it holds: its slots, its webhook sender, its counts, its log. */
export interface ServerParts {
  slots: JobSlots;
  webhooks: WebhookSender;
  metrics: JobMetrics;
  log: { info(fields: object, message: string): void };
}

/** Makes the server's queue once the parts it lends exist. */
export type ServerJobsFactory = (parts: ServerParts) => ServerJobs;
