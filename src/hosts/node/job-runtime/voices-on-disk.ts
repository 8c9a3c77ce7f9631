import { randomBytes } from 'node:crypto';
import { open, readFile, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { readVoicesFile, voicesFileText, VoicesFileError } from '../../../core/voices/voice-file';
import type { Voice } from '../../../core/voices/voice';

/**
 * A voices file on disk (`--voices FILE.json`), as `murmur transcribe`, `murmur voices`,
 * `murmur serve` and `murmur worker` read and write it. Voices are personal data: they are read
 * from and written to the file the operator named, and nowhere else.
 */

/** Why the voices file cannot be used, in one sentence that starts with its name. */
export class VoicesOnDiskError extends Error {
  override name = 'VoicesOnDiskError';
}

/**
 * The voices of the file at `path`. A file that is not there is an empty list where `missing`
 * is `'empty'` (a file `murmur voices add` is about to make), and refused otherwise.
 */
export async function readVoicesAt(
  path: string,
  missing: 'empty' | 'refuse' = 'refuse',
): Promise<Voice[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (thrown) {
    const code = (thrown as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && missing === 'empty') return [];
    if (code === 'ENOENT') throw new VoicesOnDiskError(`No voices file at "${path}".`);
    if (code === 'EISDIR') throw new VoicesOnDiskError(`"${path}" is a folder, not a voices file.`);
    throw new VoicesOnDiskError(`The voices file "${path}" cannot be read.`);
  }
  try {
    return readVoicesFile(text);
  } catch (thrown) {
    if (thrown instanceof VoicesFileError)
      throw new VoicesOnDiskError(`"${path}" ${thrown.message}`);
    throw thrown;
  }
}

/**
 * Writes the voices to `path` whole or not at all: to a file beside it first, then renamed
 * over it, so that a run stopped halfway never leaves a voices file that cannot be read.
 */
export async function writeVoicesAt(named: string, voices: readonly Voice[]): Promise<void> {
  // A link is kept a link: the file it points to is the one written.
  const path = await realpath(named).catch(() => named);
  const partial = join(
    dirname(path),
    `.${basename(path)}.${randomBytes(6).toString('hex')}.partial`,
  );
  try {
    // Only its owner reads it: a voice is a biometric trait.
    await writeFile(partial, voicesFileText(voices), { mode: 0o600 });
    await rename(partial, path);
  } catch (thrown) {
    await unlink(partial).catch(() => undefined);
    const code = (thrown as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR')
      throw new VoicesOnDiskError(`No folder at "${dirname(path)}" for the voices file.`);
    if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
      throw new VoicesOnDiskError(`No permission to write the voices file "${path}".`);
    if (code === 'EISDIR') throw new VoicesOnDiskError(`"${path}" is a folder, not a voices file.`);
    throw thrown;
  }
}

/** How long a change waits for another command's change of the same file to end. */
const LOCK_WAIT_MS = 30_000;
/** A lock older than this was left by a command that died: no change takes that long. */
const STALE_LOCK_MS = 60_000;

/**
 * Changes the voices file at `path` as one step: no other `murmur` changes it meanwhile. The
 * voices are read again under a lock file beside it (`.NAME.lock`, made only if absent), so
 * that two commands that add a voice each at the same time both keep theirs (each reads what
 * the other wrote). A lock left by a command that died is taken over once it is old.
 */
export async function updateVoicesAt<T>(
  path: string,
  change: (voices: Voice[]) => { voices: Voice[]; result: T },
  missing: 'empty' | 'refuse' = 'refuse',
): Promise<T> {
  const real = await realpath(path).catch(() => path);
  const lock = join(dirname(real), `.${basename(real)}.lock`);
  const until = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const handle = await open(lock, 'wx', 0o600);
      await handle.close();
      break;
    } catch (thrown) {
      if ((thrown as NodeJS.ErrnoException).code !== 'EEXIST') break;
      const age = await stat(lock).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > STALE_LOCK_MS) await unlink(lock).catch(() => undefined);
      else if (Date.now() > until)
        throw new VoicesOnDiskError(
          `The voices file "${path}" is being changed by another command (its lock ${lock} is held); try again, or remove the lock if no murmur runs.`,
        );
      else await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 50));
    }
  }
  try {
    const { voices, result } = change(await readVoicesAt(path, missing));
    await writeVoicesAt(path, voices);
    return result;
  } finally {
    await unlink(lock).catch(() => undefined);
  }
}
