import { randomBytes } from 'node:crypto';
import { readFile, rename, unlink, writeFile } from 'node:fs/promises';
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
export async function writeVoicesAt(path: string, voices: readonly Voice[]): Promise<void> {
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
