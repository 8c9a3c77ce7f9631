import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import type { QueuedJob } from '../job-runtime/job-queue';
import { failureBody } from './redis-job-view';

/** A job as BullMQ hands it over, with only what the error body reads. */
const job = (fields: Partial<Job<QueuedJob>>) =>
  ({
    attemptsMade: 0,
    stalledCounter: 0,
    data: { requestId: 'M-1' },
    finishedOn: 0,
    ...fields,
  }) as unknown as Job<QueuedJob>;

describe('the error of a job given up', () => {
  it('says its worker died under it, and how many times, whatever was read of it', () => {
    const given = failureBody(job({ stalledCounter: 2 }), 'job stalled more than allowable limit');
    expect(given.message).toBe(
      "The job's worker stopped while running it (it died or lost Redis for too long), 2 times, more often than the workers allow (--max-stalls): the job was given up.",
    );
    // Read before BullMQ wrote why: no reason at all, never "failed 0 times: unknown".
    const bare = failureBody(job({}));
    expect(bare.message).toBe(
      "The job's worker stopped while running it (it died or lost Redis for too long), 1 time, more often than the workers allow (--max-stalls): the job was given up.",
    );
  });

  it("keeps an attempt's own error body, and counts failed attempts", () => {
    const body = { statusCode: 422, error: 'undecodable_media', message: 'x' };
    expect(failureBody(job({ failedReason: JSON.stringify(body), attemptsMade: 1 }))).toEqual(body);
    expect(failureBody(job({ failedReason: 'boom', attemptsMade: 2 })).message).toBe(
      'The job failed 2 times: boom',
    );
  });
});
