import type { SpillFile, SpillPort } from '../../engine/ports';

/** The parts of the origin-private file system's synchronous handle used here (workers only). */
interface SyncAccessHandle {
  write(buffer: Uint8Array, options: { at: number }): number;
  read(buffer: Uint8Array, options: { at: number }): number;
  close(): void;
}
interface SyncFileHandle {
  createSyncAccessHandle(): Promise<SyncAccessHandle>;
}

const PREFIX = 'murmur-audio-';

/**
 * Scratch files for long decoded audio in the origin-private file system, read and written
 * synchronously from the engine's worker: memory stays flat however long the file. A file is
 * removed when closed; files a closed tab left behind are removed when the next worker starts
 * (a file another tab is using is locked, and stays). Where the browser has no such file system
 * (or no room), null: the audio stays in memory.
 */
export function browserSpillFiles(): SpillPort {
  let swept: Promise<void> | null = null;
  return async () => {
    try {
      const root = await navigator.storage.getDirectory();
      swept ??= sweep(root);
      await swept;
      const name = `${PREFIX}${crypto.randomUUID()}.pcm`;
      const file = (await root.getFileHandle(name, { create: true })) as unknown as SyncFileHandle;
      if (typeof file.createSyncAccessHandle !== 'function') return null;
      const handle = await file.createSyncAccessHandle();
      return spillFile(handle, () => root.removeEntry(name));
    } catch {
      return null;
    }
  };
}

function spillFile(handle: SyncAccessHandle, remove: () => Promise<void>): SpillFile {
  let open = true;
  const check = () => {
    if (!open) throw new Error('The decoded audio was read after its scratch file was closed.');
  };
  return {
    write(bytes, at) {
      check();
      for (let done = 0; done < bytes.length;) {
        const wrote = handle.write(bytes.subarray(done), { at: at + done });
        if (wrote <= 0) throw new Error('The browser gave no more room for the decoded audio.');
        done += wrote;
      }
    },
    read(into, at) {
      check();
      for (let done = 0; done < into.length;) {
        const got = handle.read(into.subarray(done), { at: at + done });
        if (got <= 0) throw new Error("The decoded audio's scratch file ended early.");
        done += got;
      }
    },
    close() {
      if (!open) return;
      open = false;
      handle.close();
      remove().catch(() => undefined);
    },
  };
}

/** Removes scratch files no worker holds open (those of closed tabs). */
async function sweep(root: FileSystemDirectoryHandle): Promise<void> {
  const names: string[] = [];
  for await (const name of (root as unknown as { keys(): AsyncIterable<string> }).keys()) {
    if (name.startsWith(PREFIX)) names.push(name);
  }
  await Promise.all(names.map((name) => root.removeEntry(name).catch(() => undefined)));
}
