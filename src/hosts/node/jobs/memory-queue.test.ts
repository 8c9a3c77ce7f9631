import { describe, expect, it } from 'vitest';
import { errorBody, ServiceError } from '../../../core/contract/errors';
import type { TranscriptionResponse } from '../../../core/contract/response';
import type { JobEnd, QueuedJob } from '../job-runtime/job-queue';
import type { JobReport } from './job-run';
import { MemoryJobQueue } from './memory-queue';

const job = (id: string): QueuedJob => ({
  id,
  requestId: `M-0000000${id.length}`,
  endpoint: 'audio',
  strings: {},
  files: {},
  folder: '/nowhere',
  webhookUrl: null,
  createdAt: '2026-11-20T12:00:00.000Z',
});

const response = { prediction: 'hello', prediction_raw: {} } as unknown as TranscriptionResponse;

/** A runner whose jobs end when the test says so, or when they are cancelled. */
function controlledRunner() {
  const finishers = new Map<string, () => void>();
  const reports = new Map<string, JobReport>();
  const run = (queued: QueuedJob, signal: AbortSignal, report: JobReport) =>
    new Promise<JobEnd>((resolve) => {
      reports.set(queued.id, report);
      finishers.set(queued.id, () => resolve({ status: 'done', result: response }));
      signal.addEventListener('abort', () => {
        const reason = signal.reason as ServiceError;
        const now = new Date(0);
        const error = errorBody(reason, { path: '/v2/transcription', requestId: 'M-1', now });
        resolve({ status: 'cancelled', error, retryable: false });
      });
    });
  return { run, finishers, reports };
}

describe('the in-memory job queue', () => {
  it('shows a job queued, processing with its stage, then done with its result', async () => {
    const runner = controlledRunner();
    const queue = new MemoryJobQueue(runner.run, { maxQueued: 5, concurrency: 1, keepMs: 1000 });
    await queue.submit(job('a'));
    expect(await queue.get('a')).toMatchObject({ status: 'queued', stage: null, result: null });
    runner.reports.get('a')!.started();
    runner.reports.get('a')!.stage('recognise', 0.5);
    expect(await queue.get('a')).toMatchObject({
      status: 'processing',
      stage: 'recognise',
      progress: 0.5,
    });
    runner.finishers.get('a')!();
    await queue.close(0);
    const done = await queue.get('a');
    expect(done).toMatchObject({ status: 'done', result: response, error: null });
    expect(done!.finished_at).not.toBeNull();
    expect(await queue.get('unknown')).toBeNull();
  });

  it('shows no stage while a job waits, the one it runs in, then the last it reached', async () => {
    const runner = controlledRunner();
    const queue = new MemoryJobQueue(runner.run, { maxQueued: 5, concurrency: 1, keepMs: 1000 });
    await queue.submit(job('a'));
    await queue.submit(job('b'));
    // Each job checks its request before it waits for an engine.
    runner.reports.get('a')!.stage('validate', null);
    runner.reports.get('b')!.stage('validate', null);
    expect(await queue.get('a')).toMatchObject({ status: 'queued', stage: null, progress: null });
    runner.reports.get('a')!.started();
    expect(await queue.get('a')).toMatchObject({ status: 'processing', stage: 'validate' });
    runner.reports.get('a')!.stage('assemble', 0.5);
    runner.finishers.get('a')!();
    await queue.cancel('b');
    await queue.close(0);
    expect(await queue.get('a')).toMatchObject({ status: 'done', stage: 'assemble', progress: 1 });
    // Cancelled before it ran: it reached no stage.
    expect(await queue.get('b')).toMatchObject({ status: 'cancelled', stage: null });
  });

  it('cancels a job through its signal, and leaves a finished one as it is', async () => {
    const runner = controlledRunner();
    const queue = new MemoryJobQueue(runner.run, { maxQueued: 5, concurrency: 1, keepMs: 1000 });
    await queue.submit(job('a'));
    await queue.submit(job('b'));
    runner.finishers.get('b')!();
    const cancelled = await queue.cancel('a');
    expect(cancelled).toMatchObject({ status: 'cancelled', error: { error: 'cancelled' } });
    expect(cancelled!.error!.message).toMatch(/DELETE/);
    expect(await queue.cancel('b')).toMatchObject({ status: 'done' });
    expect(await queue.cancel('c')).toBeNull();
  });

  it('refuses a job past max-queued with the wait in seconds', async () => {
    const runner = controlledRunner();
    const queue = new MemoryJobQueue(runner.run, { maxQueued: 1, concurrency: 1, keepMs: 1000 });
    await queue.submit(job('a'));
    await expect(queue.submit(job('b'))).rejects.toMatchObject({
      code: 'too_many_requests',
      message: expect.stringMatching(/queue is full \(1 job waiting\)/) as unknown,
      retryAfterSeconds: expect.any(Number) as unknown,
    });
    // A job that runs no longer waits: there is room again.
    runner.reports.get('a')!.started();
    await expect(queue.submit(job('b'))).resolves.toBeUndefined();
  });

  it('forgets a result once it has been kept keep-results long', async () => {
    let now = Date.parse('2026-11-20T12:00:00.000Z');
    const runner = controlledRunner();
    const queue = new MemoryJobQueue(runner.run, {
      maxQueued: 5,
      concurrency: 1,
      keepMs: 3_600_000,
      now: () => new Date(now),
    });
    await queue.submit(job('a'));
    runner.finishers.get('a')!();
    await queue.close(0);
    now += 3_599_000;
    expect(await queue.get('a')).toMatchObject({ status: 'done' });
    now += 1_000;
    expect(await queue.get('a')).toBeNull();
  });
});
