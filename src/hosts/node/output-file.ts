import { stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { CliUsageError } from './cli-args';

/**
 * Files the CLI writes where the user asked (`-o FILE`): a path that cannot be written is the
 * user's to change, said in a sentence with the path, never as Node's error and its stack.
 */

/** Why `path` cannot be written, in the user's terms, or null when it may be tried. */
export async function outputPathProblem(path: string): Promise<string | null> {
  const folder = dirname(resolve(path));
  const found = await stat(folder).catch(() => null);
  if (found === null || !found.isDirectory()) return `No folder at "${dirname(path)}".`;
  const target = await stat(path).catch(() => null);
  if (target?.isDirectory()) return `"${path}" is a folder; give the name of a file to write.`;
  return null;
}

/** The sentence for a failed write: the user's path at fault, or null for another failure. */
function writeProblem(path: string, error: NodeJS.ErrnoException): string | null {
  switch (error.code) {
    case 'ENOENT':
    case 'ENOTDIR':
      return `No folder at "${dirname(path)}".`;
    case 'EISDIR':
      return `"${path}" is a folder; give the name of a file to write.`;
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return `No permission to write "${path}".`;
    default:
      return null;
  }
}

/**
 * Writes `data` to `path`. A path the user must change throws a `CliUsageError`; a write
 * stopped by `signal` leaves no part of the file behind and throws the signal's `AbortError`.
 */
export async function writeOutputFile(
  path: string,
  data: string | Uint8Array,
  signal?: AbortSignal,
): Promise<void> {
  signal?.throwIfAborted();
  try {
    await writeFile(path, data, signal ? { signal } : {});
  } catch (thrown) {
    if (signal?.aborted) {
      await unlink(path).catch(() => undefined);
      throw thrown;
    }
    const problem = writeProblem(path, thrown as NodeJS.ErrnoException);
    if (problem === null) throw thrown;
    throw new CliUsageError(problem);
  }
}
