import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SpillFile, SpillPort } from '../../engine/ports';

/**
 * Scratch files for long decoded audio, in `folder` (the system's temporary folder by default).
 * The file's name is removed as soon as it is open where the system allows it (POSIX): the
 * space comes back when it is closed or when the process ends, however it ends, so a crash
 * leaves nothing behind. Where the name cannot be removed while open, it is removed on close.
 */
export function nodeSpillFiles(folder: string = tmpdir()): SpillPort {
  return async () => {
    const path = join(folder, `murmur-audio-${randomUUID()}.pcm`);
    let fd: number;
    try {
      fd = openSync(path, 'wx+', 0o600);
    } catch {
      // Nowhere to write: the audio stays in memory.
      return null;
    }
    let named = true;
    try {
      unlinkSync(path);
      named = false;
    } catch {
      // Removed on close instead.
    }
    return nodeSpillFile(fd, named ? path : null);
  };
}

function nodeSpillFile(fd: number, path: string | null): SpillFile {
  let open = true;
  const check = () => {
    if (!open) throw new Error('The decoded audio was read after its scratch file was closed.');
  };
  return {
    write(bytes, at) {
      check();
      for (let done = 0; done < bytes.length;) {
        done += writeSync(fd, bytes, done, bytes.length - done, at + done);
      }
    },
    read(into, at) {
      check();
      for (let done = 0; done < into.length;) {
        const got = readSync(fd, into, done, into.length - done, at + done);
        if (got === 0) throw new Error("The decoded audio's scratch file ended early.");
        done += got;
      }
    },
    close() {
      if (!open) return;
      open = false;
      closeSync(fd);
      if (path !== null) {
        try {
          unlinkSync(path);
        } catch {
          // Already gone.
        }
      }
    },
  };
}
