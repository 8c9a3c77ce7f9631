import type { FfmpegRun } from '../../engine/ports';
import type { Envelope, ErrorReply } from '../../worker/envelope';
import type { DiskFile } from './media-file';

/** A media source as it crosses to the ffmpeg thread: a file on disk by path, or bytes. */
export type WireSource =
  { kind: 'file'; file: DiskFile } | { kind: 'bytes'; name: string; bytes: Uint8Array };

/** Calls from the main thread to the ffmpeg thread, one per method of `FfmpegPort`. */
export type FfmpegCall =
  | Envelope<'load', null>
  | Envelope<'mount', WireSource>
  | Envelope<'unmount', string>
  | Envelope<'readHead', { source: WireSource; length: number }>
  | Envelope<'exec', readonly string[]>
  | Envelope<'ffprobe', readonly string[]>
  | Envelope<'writeFile', { path: string; data: Uint8Array }>
  | Envelope<'readFile', string>
  | Envelope<'deleteFile', string>;

/** What each call answers with. */
export interface FfmpegResults {
  load: null;
  mount: string;
  unmount: null;
  readHead: Uint8Array;
  exec: FfmpegRun;
  ffprobe: FfmpegRun;
  writeFile: null;
  readFile: Uint8Array;
  deleteFile: null;
}

export type FfmpegReply = Envelope<'result', unknown> | ErrorReply;
