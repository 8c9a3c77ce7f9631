import { parentPort } from 'node:worker_threads';
import type { MediaSource } from '../../engine/ports';
import { toWireError } from '../../worker/envelope';
import { nodeFfmpeg } from './ffmpeg-core';
import type { FfmpegCall, FfmpegReply, WireSource } from './ffmpeg-thread-protocol';

/**
 * The ffmpeg thread: one `nodeFfmpeg` core, driven by calls from the main thread. A decode is
 * seconds of synchronous WebAssembly; here it keeps this thread busy, not the server's.
 */
const ffmpeg = nodeFfmpeg();
const port = parentPort;
if (port === null) throw new Error('The ffmpeg thread runs as a worker thread.');

const source = (wire: WireSource): MediaSource => wire;

async function handle(call: FfmpegCall): Promise<unknown> {
  switch (call.type) {
    case 'load':
      return ffmpeg.load().then(() => null);
    case 'mount':
      return ffmpeg.mount(source(call.data));
    case 'unmount':
      return ffmpeg.unmount(call.data).then(() => null);
    case 'readHead':
      return ffmpeg.readHead(source(call.data.source), call.data.length);
    case 'exec':
      return ffmpeg.exec(call.data);
    case 'ffprobe':
      return ffmpeg.ffprobe(call.data);
    case 'writeFile':
      return ffmpeg.writeFile(call.data.path, call.data.data).then(() => null);
    case 'readFile':
      return ffmpeg.readFile(call.data);
    case 'deleteFile':
      return ffmpeg.deleteFile(call.data).then(() => null);
    default:
      throw new Error(`Unknown ffmpeg call ${(call as { type: string }).type}.`);
  }
}

port.on('message', (call: FfmpegCall) => {
  handle(call).then(
    (data) => {
      const reply: FfmpegReply = { id: call.id, type: 'result', data };
      // Output buffers are moved, not copied (a decoding window is about 8 MB).
      const moved =
        data instanceof Uint8Array && data.byteOffset === 0 && data.buffer instanceof ArrayBuffer
          ? [data.buffer]
          : [];
      port.postMessage(reply, moved);
    },
    (thrown: unknown) => {
      const reply: FfmpegReply = { id: call.id, type: 'error', data: toWireError(thrown) };
      port.postMessage(reply);
    },
  );
});
