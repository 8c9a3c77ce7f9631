import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { FFmpegCoreModule } from '@ffmpeg/types';
import { RUNS_PER_CORE, ffmpegInputName } from '../../engine/ffmpeg-core-facts';
import type { FfmpegPort, FfmpegRun, MediaSource } from '../../engine/ports';

/**
 * ffmpeg.wasm's core (`@ffmpeg/core`) run in-process by Node. It is built for browser workers:
 * two small shims make it load here (a `self.location` while the module starts, and a
 * synchronous reader for its WORKERFS), and media files are mounted with WORKERFS over file
 * descriptors, so ffmpeg reads them piece by piece from disk, never whole.
 */
export interface NodeFfmpegOptions {
  /** Folder of ffmpeg-core.js and ffmpeg-core.wasm (default: the installed @ffmpeg/core). */
  coreDir?: string;
}

/** What WORKERFS reads from: a byte range it can cut smaller (the shape of a Blob slice). */
class ByteRange {
  constructor(
    readonly read: (buffer: Uint8Array, position: number) => void,
    readonly start: number,
    readonly end: number,
  ) {}

  get size(): number {
    return this.end - this.start;
  }

  slice(from: number, to: number): ByteRange {
    return new ByteRange(this.read, this.start + from, Math.min(this.start + to, this.end));
  }
}

/** Stands in for FileReaderSync, which WORKERFS reads Blob slices with. */
const rangeReader = {
  readAsArrayBuffer(range: ByteRange): ArrayBuffer {
    const buffer = new Uint8Array(range.size);
    range.read(buffer, range.start);
    return buffer.buffer;
  },
};

interface Mounted {
  dir: string;
  file: string;
  range: ByteRange;
  close: () => void;
}

type CoreFactory = (overrides: Record<string, unknown>) => Promise<FFmpegCoreModule>;

function resolveCoreDir(): string {
  const require = createRequire(import.meta.url);
  const main = require.resolve('@ffmpeg/core');
  // The CommonJS entry is the umd build; its esm sibling is what `import` loads.
  return main.replace(/[\\/]umd[\\/]ffmpeg-core\.js$/, '/esm');
}

async function loadCore(coreDir: string): Promise<FFmpegCoreModule> {
  const { default: factory } = (await import(/* @vite-ignore */ `${coreDir}/ffmpeg-core.js`)) as {
    default: CoreFactory;
  };
  const global = globalThis as { self?: unknown };
  const hadSelf = 'self' in global;
  // The core reads `self.location.href` once while it starts, as a worker would have it.
  if (!hadSelf) global.self = { location: { href: `file://${coreDir}/ffmpeg-core.js` } };
  try {
    return await factory({
      wasmBinary: readFileSync(`${coreDir}/ffmpeg-core.wasm`),
      print: () => undefined,
      printErr: () => undefined,
    });
  } finally {
    if (!hadSelf) delete global.self;
  }
}

/** The Node host's ffmpeg: one core, loaded on first use and kept. */
export function nodeFfmpeg(options: NodeFfmpegOptions = {}): FfmpegPort {
  let core: Promise<FFmpegCoreModule> | null = null;
  let log: string[] = [];
  const mounts = new Map<string, Mounted>();
  let mountCount = 0;

  let runs = 0;
  /** Bytes of mounted media read since the current run began. */
  let bytesRead = 0;

  const attach = (m: FFmpegCoreModule, mounted: Mounted) => {
    m.FS.mkdir(mounted.dir);
    m.FS.mount(
      m.FS.filesystems.WORKERFS,
      { blobs: [{ name: mounted.file, data: mounted.range as unknown as Blob }] },
      mounted.dir,
    );
  };

  const ready = () => {
    core ??= loadCore(options.coreDir ?? resolveCoreDir()).then((m) => {
      m.setLogger(({ message }) => log.push(message));
      const fs = m.FS as unknown as { filesystems: { WORKERFS: { reader: unknown } } };
      fs.filesystems.WORKERFS.reader = rangeReader;
      for (const mounted of mounts.values()) attach(m, mounted);
      return m;
    });
    return core;
  };

  /** A fresh core once this one has run its share; files written before a run are kept. */
  const fresh = () => {
    if (runs >= RUNS_PER_CORE) {
      runs = 0;
      core = null;
    }
    return ready();
  };

  const run = async (
    program: 'exec' | 'ffprobe',
    args: readonly string[],
    signal?: AbortSignal,
  ): Promise<FfmpegRun> => {
    const m = await fresh();
    signal?.throwIfAborted();
    runs++;
    log = [];
    bytesRead = 0;
    m.reset();
    m.setTimeout(-1);
    let exitCode: number;
    try {
      exitCode = m[program](...args);
    } catch (thrown) {
      // A program that calls exit() (ffprobe on a stream it cannot open) throws the runtime's
      // ExitStatus: a run that failed with that status. The core is not trusted after it.
      const status = (thrown as { name?: unknown; status?: unknown } | null) ?? {};
      if (status.name !== 'ExitStatus' || typeof status.status !== 'number') throw thrown;
      exitCode = status.status;
      runs = RUNS_PER_CORE;
    }
    const result = { exitCode, log, bytesRead };
    log = [];
    return result;
  };

  const pathOf = (source: MediaSource): string | null =>
    source.kind === 'file' && 'path' in source.file && typeof source.file.path === 'string'
      ? source.file.path
      : null;

  return {
    async load() {
      await ready();
    },
    async mount(source) {
      const m = await fresh();
      const dir = `/media-${++mountCount}`;
      const filePath = pathOf(source);
      let range: ByteRange;
      let close = () => undefined as void;
      let name: string;
      if (filePath !== null && source.kind === 'file') {
        const fd = openSync(filePath, 'r');
        close = () => closeSync(fd);
        range = new ByteRange(
          (buffer, position) => {
            bytesRead += buffer.length;
            readSync(fd, buffer, 0, buffer.length, position);
          },
          0,
          source.file.size,
        );
        name = source.file.name;
      } else if (source.kind === 'bytes') {
        const bytes = source.bytes;
        range = new ByteRange(
          (buffer, position) => {
            bytesRead += buffer.length;
            buffer.set(bytes.subarray(position, position + buffer.length));
          },
          0,
          bytes.length,
        );
        name = source.name;
      } else {
        throw new Error('The Node ffmpeg host reads files on disk (with a path) or bytes.');
      }
      const file = ffmpegInputName(name);
      const mounted = { dir, file, range, close };
      attach(m, mounted);
      mounts.set(dir, mounted);
      return `${dir}/${file}`;
    },
    async unmount(path) {
      const m = await ready();
      const dir = path.slice(0, path.lastIndexOf('/'));
      const mounted = mounts.get(dir);
      if (mounted === undefined) return;
      mounts.delete(dir);
      m.FS.unmount(dir);
      m.FS.rmdir(dir);
      mounted.close();
    },
    async readHead(source, length) {
      if (source.kind === 'bytes') return source.bytes.slice(0, length);
      const filePath = pathOf(source);
      if (filePath === null)
        throw new Error('The Node ffmpeg host reads files on disk (with a path).');
      const fd = openSync(filePath, 'r');
      try {
        const buffer = new Uint8Array(Math.min(length, source.file.size));
        const read = readSync(fd, buffer, 0, buffer.length, 0);
        return buffer.subarray(0, read);
      } finally {
        closeSync(fd);
      }
    },
    exec: (args, opts) => run('exec', args, opts?.signal),
    ffprobe: (args, opts) => run('ffprobe', args, opts?.signal),
    async writeFile(path, data) {
      (await fresh()).FS.writeFile(path, data);
    },
    async readFile(path) {
      return (await ready()).FS.readFile(path, { encoding: 'binary' }) as Uint8Array;
    },
    async deleteFile(path) {
      (await ready()).FS.unlink(path);
    },
  };
}
