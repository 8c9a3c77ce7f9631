import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where uploads go when the operator names no folder. */
export const defaultUploadDir = () => join(tmpdir(), 'murmur-serve');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (thrown) {
    // EPERM: the process exists but belongs to someone else.
    return (thrown as { code?: string }).code === 'EPERM';
  }
}

/**
 * The upload folders of one server: `<parent>/<pid>/<request>`. The parent is the server's
 * own; each instance writes under its process id, so that several instances can share a
 * parent, and one that starts removes what instances no longer running left behind (a
 * SIGKILL or a power cut gives them no chance to clean up).
 */
export class UploadFolders {
  readonly root: string;

  constructor(readonly parent: string) {
    this.root = join(parent, String(process.pid));
  }

  /** Makes the instance's folder, after sweeping those of instances that are gone. */
  async open(): Promise<string[]> {
    await mkdir(this.parent, { recursive: true, mode: 0o700 });
    const swept: string[] = [];
    for (const entry of await readdir(this.parent, { withFileTypes: true })) {
      const pid = Number(entry.name);
      const ours = entry.name === String(process.pid);
      if (!entry.isDirectory() || !/^\d+$/.test(entry.name)) continue;
      if (ours || !alive(pid)) {
        await rm(join(this.parent, entry.name), { recursive: true, force: true });
        swept.push(entry.name);
      }
    }
    await mkdir(this.root, { recursive: true, mode: 0o700 });
    return swept;
  }

  /** A fresh folder for one request's files. */
  create(): Promise<string> {
    return mkdtemp(join(this.root, 'request-'));
  }

  /** Removes the instance's folder and everything in it (at exit). */
  close(): Promise<void> {
    return rm(this.root, { recursive: true, force: true });
  }
}
