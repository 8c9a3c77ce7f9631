import { FFmpeg, FFFSType } from '@ffmpeg/ffmpeg';
import coreUrl from '@ffmpeg/core?url';
import wasmUrl from '@ffmpeg/core/wasm?url';
import { RUNS_PER_CORE, ffmpegInputName } from '../../engine/ffmpeg-core-facts';
import type { FfmpegPort, FfmpegRun, MediaSource } from '../../engine/ports';
import type { NetworkRecord } from '../../core/network-note';
import type { FfmpegNetworkChannel } from './ffmpeg.worker';
import ffmpegWorkerUrl from './ffmpeg.worker.ts?worker&url';
import { heardFromWorker } from './network-ledger';
import { policyWorkerUrl } from '../../worker/page-policy-worker';

/**
 * ffmpeg.wasm in the browser: `@ffmpeg/ffmpeg` runs the core in a worker of its own, from the
 * core files this app serves (never a CDN, so it works offline). Media files are mounted with
 * WORKERFS, which reads the File piece by piece as ffmpeg asks: a large file is never copied
 * into ffmpeg's memory.
 */
export interface BrowserFfmpegOptions {
  /** URLs of ffmpeg-core.js and ffmpeg-core.wasm (default: the copies bundled with the app). */
  coreUrl?: string;
  wasmUrl?: string;
  /** Makes the core's files ready (fetched and kept for offline use) before it loads. */
  prepare?: () => Promise<void>;
}

const absolute = (url: string) => new URL(url, self.location.href).href;

function blobOf(source: MediaSource): { blob: Blob; name: string } {
  if (source.kind === 'bytes') {
    return { blob: new Blob([source.bytes as Uint8Array<ArrayBuffer>]), name: source.name };
  }
  if (!(source.file instanceof Blob))
    throw new Error('The browser ffmpeg host reads File objects.');
  return { blob: source.file, name: source.file.name };
}

interface Mounted {
  dir: string;
  file: string;
  blob: Blob;
}

/**
 * The browser host's ffmpeg: loaded on first use; replaced after a cancelled run and after
 * `RUNS_PER_CORE` runs.
 */
export function browserFfmpeg(options: BrowserFfmpegOptions = {}): FfmpegPort {
  let ffmpeg: Promise<FFmpeg> | null = null;
  let log: string[] = [];
  let mountCount = 0;
  let runs = 0;
  const mounts = new Map<string, Mounted>();
  // ffmpeg's workers (a fresh one after a cancel or after their share of runs) report their
  // requests here, for the Network note; the name is this ffmpeg's alone.
  const networkChannel = `murmur-ffmpeg-network-${crypto.randomUUID()}`;
  if (typeof BroadcastChannel !== 'undefined') {
    const channel = new BroadcastChannel(networkChannel);
    channel.onmessage = (event: MessageEvent<NetworkRecord[]>) => heardFromWorker(event.data);
  }

  const attach = async (instance: FFmpeg, mounted: Mounted) => {
    await instance.createDir(mounted.dir);
    await instance.mount(
      FFFSType.WORKERFS,
      { blobs: [{ name: mounted.file, data: mounted.blob }] },
      mounted.dir,
    );
  };

  const ready = () => {
    ffmpeg ??= (async () => {
      await options.prepare?.();
      const instance = new FFmpeg();
      instance.on('log', ({ message }) => log.push(message));
      const config: Parameters<FFmpeg['load']>[0] & FfmpegNetworkChannel = {
        coreURL: absolute(options.coreUrl ?? coreUrl),
        wasmURL: absolute(options.wasmUrl ?? wasmUrl),
        // Started from a `blob:` wrapper, ffmpeg's worker holds this worker's policy, as the
        // app's own workers do, whatever headers the host sends.
        classWorkerURL: policyWorkerUrl(ffmpegWorkerUrl),
        networkChannel,
      };
      await instance.load(config);
      for (const mounted of mounts.values()) await attach(instance, mounted);
      return instance;
    })();
    ffmpeg.catch(() => (ffmpeg = null));
    return ffmpeg;
  };

  /** A fresh core once this one has run its share; files written before a run are kept. */
  const fresh = async () => {
    if (runs >= RUNS_PER_CORE && ffmpeg !== null) {
      runs = 0;
      const old = ffmpeg;
      ffmpeg = null;
      (await old).terminate();
    }
    return ready();
  };

  const run = async (
    program: 'exec' | 'ffprobe',
    args: readonly string[],
    signal?: AbortSignal,
  ): Promise<FfmpegRun> => {
    const instance = await fresh();
    signal?.throwIfAborted();
    runs++;
    log = [];
    try {
      const exitCode = await instance[program]([...args], -1, signal ? { signal } : {});
      return { exitCode, log };
    } catch (e) {
      // A run cannot be stopped inside ffmpeg's worker: end the worker, load again next time.
      if (signal?.aborted) {
        instance.terminate();
        ffmpeg = null;
      }
      throw e;
    } finally {
      log = [];
    }
  };

  return {
    async load() {
      await ready();
    },
    async mount(source) {
      const instance = await fresh();
      const { blob, name } = blobOf(source);
      const mounted = {
        dir: `/media-${++mountCount}`,
        file: ffmpegInputName(name),
        blob,
      };
      await attach(instance, mounted);
      mounts.set(mounted.dir, mounted);
      return `${mounted.dir}/${mounted.file}`;
    },
    async unmount(path) {
      const dir = path.slice(0, path.lastIndexOf('/'));
      if (!mounts.delete(dir) || ffmpeg === null) return;
      const instance = await ready();
      await instance.unmount(dir);
      await instance.deleteDir(dir);
    },
    async readHead(source, length) {
      const { blob } = blobOf(source);
      return new Uint8Array(await blob.slice(0, length).arrayBuffer());
    },
    exec: (args, opts) => run('exec', args, opts?.signal),
    ffprobe: (args, opts) => run('ffprobe', args, opts?.signal),
    async writeFile(path, data) {
      await (await fresh()).writeFile(path, data);
    },
    async readFile(path) {
      const data = await (await ready()).readFile(path);
      if (typeof data === 'string') throw new Error(`${path} was read as text.`);
      return data;
    },
    async deleteFile(path) {
      await (await ready()).deleteFile(path);
    },
  };
}
