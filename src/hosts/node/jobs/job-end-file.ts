import { access, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { QueuedJob } from '../job-runtime/job-queue';

/**
 * A job's end, kept in the job's folder in the store by the run that reached it, before the
 * queue records it. A worker whose lock lapsed while Redis was away goes on with its run, but
 * the queue refuses its record (the lock is no longer its own) and puts the job back; whichever
 * run of the job comes next answers with this end instead of starting again, and a run already
 * going stops and answers with it.
 */

const END_FILE = 'end.json';

export async function keepEnd<T>(folder: string, end: T): Promise<void> {
  const path = join(folder, END_FILE);
  // Written aside and renamed, so that a reader never finds half an end.
  const aside = `${path}.${process.pid}.part`;
  await writeFile(aside, JSON.stringify(end), { mode: 0o600 });
  await rename(aside, path);
}

/** The end an earlier run of the job kept, or null when there is none. */
export async function keptEnd<T>(folder: string): Promise<T | null> {
  let text: string;
  try {
    text = await readFile(join(folder, END_FILE), 'utf8');
  } catch {
    return null;
  }
  return JSON.parse(text) as T;
}

/** Whether an end is kept, cheaply (a running job looks every quarter of a second). */
export async function hasKeptEnd(folder: string): Promise<boolean> {
  return access(join(folder, END_FILE)).then(
    () => true,
    () => false,
  );
}

/** Whether the job's folder, or a file uploaded with it, is no longer in the store. */
export async function filesGone(job: QueuedJob): Promise<boolean> {
  const paths = [job.folder, ...Object.values(job.files).map((file) => file.path)];
  const found = await Promise.all(
    paths.map((path) =>
      access(path).then(
        () => true,
        () => false,
      ),
    ),
  );
  return found.includes(false);
}
