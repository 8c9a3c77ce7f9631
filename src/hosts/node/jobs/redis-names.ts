import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/** The BullMQ queue every server puts jobs on and every worker takes them from. */
export const QUEUE_NAME = 'murmur-transcription';

/**
 * The key BullMQ keeps a running job's lock in (its default prefix): the token of the worker
 * that holds the job.
 */
export const lockKey = (id: string) => `bull:${QUEUE_NAME}:${id}:lock`;

/** The key that asks for a job's cancellation: whoever runs it (or picks it up) stops. */
export const cancelKey = (id: string) => `murmur:cancel:${id}`;

/** A job's folder in the store every server and worker mounts. */
export async function storeFolder(store: string, id: string): Promise<string> {
  const folder = join(store, 'jobs', id);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  return folder;
}

/**
 * BullMQ's connection options for a Redis URL. `maxRetriesPerRequest: null` for a worker, whose
 * blocking reads must wait out a Redis restart; a server fails fast so that a client hears at once
 * that its job could not be queued.
 */
export function connectionOf(url: string, role: 'server' | 'worker') {
  return role === 'worker'
    ? { url, maxRetriesPerRequest: null, retryStrategy: reconnectAfter }
    : { url, maxRetriesPerRequest: 1, enableOfflineQueue: false, retryStrategy: reconnectAfter };
}

/**
 * Milliseconds before the next try to reach a Redis that went away: soon, and never more than
 * a second apart, so that a Redis back after a restart is used again within a second or two
 * (BullMQ's own schedule waits up to 20 s between tries, and every answer meanwhile is 503).
 */
export function reconnectAfter(tries: number): number {
  return Math.min(100 * tries, 1000);
}
