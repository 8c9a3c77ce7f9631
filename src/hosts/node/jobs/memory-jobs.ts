import { rm } from 'node:fs/promises';
import type { JobSettings } from '../job-runtime/job-host';
import type { JobEnd } from '../job-runtime/job-queue';
import type { ServerJobs, ServerParts } from '../job-runtime/server-jobs';
import { runQueuedJob } from './job-run';
import { MemoryJobQueue } from './memory-queue';

export interface MemoryJobsSettings extends JobSettings {
  /** Async jobs that may wait (429 beyond), and how long their results are kept. */
  maxQueued: number;
  keepResultsHours: number;
  concurrency: number;
  /** A fresh folder for one job's files (the server's upload folder). */
  folder: () => Promise<string>;
}

/**
 * The embedded queue: async jobs in this process, on the same engines as the synchronous
 * requests (a job waits for a free slot as a request does), their files in the server's upload
 * folder, removed when the job ends.
 */
export const memoryJobs =
  (settings: MemoryJobsSettings) =>
  ({ slots, webhooks, metrics, log }: ServerParts): ServerJobs => {
    const queue = new MemoryJobQueue(
      async (job, signal, report) => {
        let held: { slot: number; since: number } | null = null;
        const slot = async (s: AbortSignal | undefined) => {
          const index = await slots.jobSlot(s);
          held = { slot: index, since: performance.now() };
          return index;
        };
        let end: JobEnd | undefined;
        try {
          return (end = await runQueuedJob(job, settings, slot, signal, report));
        } finally {
          const h = held as { slot: number; since: number } | null;
          if (h) {
            const seconds = (performance.now() - h.since) / 1000;
            slots.jobLeft(h.slot, seconds);
            if (end) {
              metrics.jobEnded(end.status, seconds, end.status === 'done' ? end.result : undefined);
            }
          }
          await rm(job.folder, { recursive: true, force: true });
        }
      },
      {
        maxQueued: settings.maxQueued,
        concurrency: settings.concurrency,
        keepMs: settings.keepResultsHours * 3600 * 1000,
        onFinished: (job, end) =>
          webhooks.jobEnd(job, end, {
            onDelivered: (outcome) =>
              log.info({ request_id: job.requestId, job_id: job.id, webhook: outcome }, 'webhook'),
          }),
      },
    );
    return { queue, folder: () => settings.folder(), elsewhere: false };
  };
