import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { TranscriptionResponse } from '../../../core/contract/response';
import type { PipelineRunner } from '../../../engine/job/job';
import { sharedMedia } from '../../../../tools/testing/ffmpeg-fixtures';
import type { JobSettings } from '../job-runtime/job-host';
import { keepEnd, keptEnd } from './job-end-file';
import type { JobEnd, QueuedJob } from '../job-runtime/job-queue';
import { withoutPaths } from './job-run';
import { jobProcessor } from './worker-run';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** A job's folder in a store, with an upload in it. */
function jobFolder(): { folder: string; job: QueuedJob } {
  const store = mkdtempSync(join(tmpdir(), 'murmur-worker-run-'));
  folders.push(store);
  const folder = join(store, 'jobs', 'a');
  mkdirSync(folder, { recursive: true });
  const upload = join(folder, '1-upload.wav');
  copyFileSync(sharedMedia('speech/LDC93S1.wav'), upload);
  const job: QueuedJob = {
    id: 'a',
    requestId: 'M-00000001',
    endpoint: 'audio',
    strings: {},
    files: { audio: { path: upload, name: 'speech.wav', size: 1, type: 'audio/wav' } },
    folder,
    webhookUrl: null,
    createdAt: '2026-11-20T12:00:00.000Z',
  };
  return { folder, job };
}

/** BullMQ's job as the processor reads it: its data, its tries, and where progress goes. */
const bullJob = (data: QueuedJob) =>
  ({
    data,
    attemptsMade: 0,
    attemptsStarted: 2,
    opts: { attempts: 1 },
    updateProgress: () => Promise.resolve(),
  }) as unknown as Job<QueuedJob, JobEnd>;

/** Redis as the processor asks it: no job is cancelled. */
/** No cancellation asked, and no lock held by anyone (so no progress is reported). */
const redis = {
  exists: () => Promise.resolve(0),
  get: () => Promise.resolve(null),
} as unknown as Redis;

/** An engine that runs until its run is aborted, then throws the reason. */
const endlessEngine: PipelineRunner = {
  runPipeline: (_request, options) =>
    new Promise<TranscriptionResponse>((_, reject) => {
      const signal = options.signal!;
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    }),
};

const settings = (engines: JobSettings['engines']): JobSettings => ({
  maxUploadBytes: 1 << 30,
  maxSeconds: 3600,
  maxChannels: 2,
  idleSeconds: 30,
  totalSeconds: 300,
  allowPrivateUrls: false,
  engines,
});

const doneEnd: JobEnd = {
  status: 'done',
  result: { prediction: 'kept', prediction_raw: {} } as unknown as TranscriptionResponse,
  stage: 'assemble',
  progress: 1,
};

describe("a worker's run of a job", () => {
  it('answers with the end an earlier run kept in the folder, without running again', async () => {
    const { folder, job } = jobFolder();
    await keepEnd(folder, doneEnd);
    // No engine: a run would fail.
    const end = await jobProcessor(settings([]), redis)(bullJob(job));
    expect(end).toEqual(doneEnd);
  });

  it('stops when another run of the job keeps its end, and answers with that end', async () => {
    const { folder, job } = jobFolder();
    const running = jobProcessor(settings([endlessEngine]), redis)(bullJob(job));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await keepEnd(folder, doneEnd);
    expect(await running).toEqual(doneEnd);
  });

  it('keeps its end in the folder and leaves the folder for the worker to remove', async () => {
    const { folder, job } = jobFolder();
    // No engine for the slot: a failure of ours, on the job's last try.
    const end = await jobProcessor(settings([]), redis)(bullJob(job));
    expect(end).toMatchObject({
      status: 'error',
      error: {
        error: 'internal_error',
        message: 'Internal failure: No engine for the slot given.',
      },
      stage: 'validate',
    });
    expect(existsSync(job.files.audio!.path)).toBe(true);
    expect(await keptEnd(folder)).toEqual(end);
  });

  it("ends in error, naming no path, when the job's files are gone from the store", async () => {
    const { folder, job } = jobFolder();
    rmSync(folder, { recursive: true, force: true });
    const end = await jobProcessor(settings([]), redis)(bullJob(job));
    expect(end).toMatchObject({
      status: 'error',
      error: {
        error: 'internal_error',
        statusCode: 500,
        path: '/v2/transcription',
        message: "The job's files are no longer in the service's store; submit the job again.",
      },
    });
  });

  it("names no path of the store in an internal failure's message", () => {
    const folder = '/srv/murmur/jobs/4712a623';
    expect(
      withoutPaths(
        `Internal failure: ENOENT: no such file or directory, open '${folder}/1-upload.mp3'`,
        folder,
      ),
    ).toBe('Internal failure: ENOENT: no such file or directory, open a file of the job');
    expect(withoutPaths(`Internal failure: cannot write in ${folder}`, folder)).toBe(
      "Internal failure: cannot write in the job's folder",
    );
  });
});
