import { rm } from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Endpoint } from '../../../core/contract/endpoints';
import { ServiceError } from '../../../core/contract/errors';
import { jobFailure, runJob, type JobOutcome } from '../../../engine/job/job';
import { nodeJobHost } from '../job-runtime/job-host';
import type { DiskFile } from '../media-file';
import type { Ticket } from './admission';
import { noteRequest, stageTimes } from './request-log';
import type { ServerState } from './server-settings';
import { readUpload, uploadLimits } from './upload';

/**
 * The answer of one transcription request run in this process: the job's outcome, or why it
 * never ran. Its place is taken once its upload has arrived, and given back when it ends; its
 * files are gone before the answer goes out.
 */
export async function answerHere(
  state: ServerState,
  endpoint: Endpoint,
  request: FastifyRequest,
  reply: FastifyReply,
  controller: AbortController,
): Promise<JobOutcome<DiskFile>> {
  const { settings, admission, metrics } = state;
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
    const limits = { ...uploadLimits(settings), budget: state.uploadBudget };
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
    const host = nodeJobHost(settings, endpoint, folder, slot, controller.signal);
    const fields = { endpoint, strings: form.strings, files: form.files };
    const outcome = await runJob(fields, host, job).catch((thrown: unknown) =>
      jobFailure(endpoint, thrown, job),
    );
    const stages = outcome.ok ? stageTimes(outcome.response) : undefined;
    noteRequest(request, { notices: outcome.notices, ...(stages ? { stages } : {}) });
    const end = outcome.ok ? 'done' : outcome.error.code === 'cancelled' ? 'cancelled' : 'error';
    metrics.requestEvent(end);
    if (engine.since !== null) {
      const seconds = (performance.now() - engine.since) / 1000;
      metrics.jobEnded(end, seconds, outcome.ok ? outcome.response : undefined);
    }
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
}
