import { Worker } from 'node:worker_threads';
import type { FfmpegPort, MediaSource } from '../../engine/ports';
import { fromWireError } from '../../worker/envelope';
import type { DiskFile } from './media-file';
import type { FfmpegCall, FfmpegReply, FfmpegResults, WireSource } from './ffmpeg-thread-protocol';

const WORKER = new URL('./ffmpeg-thread-worker.mjs', import.meta.url);

function wire(source: MediaSource): WireSource {
  if (source.kind === 'bytes') return source;
  const file = source.file as DiskFile;
  if (typeof file.path !== 'string') {
    throw new Error('The Node ffmpeg host reads files on disk (with a path) or bytes.');
  }
  return {
    kind: 'file',
    file: { path: file.path, name: file.name, size: file.size, type: file.type },
  };
}

/**
 * `FfmpegPort` on a worker thread of its own (the HTTP service's): ffmpeg.wasm runs each
 * program synchronously, and on the main thread a long decode held every other request,
 * health checks included, until it ended. The thread starts on first use and is kept; a call
 * is cancelled between programs, not during one (as in the main thread).
 */
export function threadFfmpeg(): FfmpegPort & { close(): Promise<void> } {
  let worker: Worker | null = null;
  let next = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  const start = () => {
    if (worker) return worker;
    const started = new Worker(WORKER);
    started.unref();
    started.on('message', (reply: FfmpegReply) => {
      const call = pending.get(reply.id);
      if (call === undefined) return;
      pending.delete(reply.id);
      // An idle thread does not keep the process alive; one with calls under way does.
      if (pending.size === 0) started.unref();
      if (reply.type === 'error') call.reject(fromWireError(reply.data));
      else call.resolve(reply.data);
    });
    const fail = (error: Error) => {
      worker = null;
      for (const call of pending.values()) call.reject(error);
      pending.clear();
    };
    started.on('error', fail);
    started.on('exit', (code) => fail(new Error(`The ffmpeg thread ended (exit ${code}).`)));
    worker = started;
    return started;
  };

  const call = <T extends FfmpegCall['type']>(
    type: T,
    data: Extract<FfmpegCall, { type: T }>['data'],
    signal?: AbortSignal,
  ): Promise<FfmpegResults[T]> => {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const id = ++next;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      const thread = start();
      thread.ref();
      thread.postMessage({ id, type, data });
    });
  };

  return {
    load: () => call('load', null).then(() => undefined),
    mount: (source) => call('mount', wire(source)),
    unmount: (path) => call('unmount', path).then(() => undefined),
    readHead: (source, length) => call('readHead', { source: wire(source), length }),
    exec: (args, options) => call('exec', args, options?.signal),
    ffprobe: (args, options) => call('ffprobe', args, options?.signal),
    writeFile: (path, data) => call('writeFile', { path, data }).then(() => undefined),
    readFile: (path) => call('readFile', path),
    deleteFile: (path) => call('deleteFile', path).then(() => undefined),
    close: async () => {
      await worker?.terminate();
      worker = null;
    },
  };
}
