/**
 * What the pipeline needs from its host. The browser and Node hosts pass their own
 * implementations; the pipeline never asks which host it runs in.
 */
import type { MediaFile } from '../core/contract/request';
import type { SpeechDetector } from './media/silero-vad';

/** Progress of one long operation: a fraction 0..1 (null when unknown) and a line of detail. */
export type ProgressListener = (fraction: number | null, detail: string) => void;

/** A clock in seconds, for the `*_time` metadata fields. */
export type Clock = () => number;

/** Reads files of models laid out as on the hub: `{host}/{modelId}/resolve/main/{path}`. */
export interface ModelFiles {
  /** The base the files come from (a URL or a folder), for messages. */
  readonly host: string;
  get(
    modelId: string,
    path: string,
    options: { signal?: AbortSignal; onProgress?: ProgressListener },
  ): Promise<Uint8Array>;
}

/** The subset of onnxruntime's session the engine uses (onnxruntime-node or -web). */
export interface OnnxTensor {
  readonly data: unknown;
  readonly dims: readonly number[];
  readonly type: string;
}
export interface OnnxSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Record<string, OnnxTensor>): Promise<Record<string, OnnxTensor>>;
  release?(): Promise<void>;
}
export interface OnnxRuntime {
  createSession(model: Uint8Array): Promise<OnnxSession>;
  tensor(type: 'float32' | 'int64' | 'bool', data: unknown, dims: readonly number[]): OnnxTensor;
}

/** Where media bytes come from once the request is parsed. */
export type MediaSource<F extends MediaFile = MediaFile> =
  { kind: 'file'; file: F } | { kind: 'bytes'; name: string; bytes: Uint8Array };

/** One run of ffmpeg or ffprobe: its exit status and what it logged. */
export interface FfmpegRun {
  exitCode: number;
  log: string[];
}

/**
 * ffmpeg.wasm as both hosts run it: a virtual file system and the two programs. Paths are in
 * that file system. The browser passes `@ffmpeg/ffmpeg` (in its own worker); Node runs
 * `@ffmpeg/core` in-process.
 */
export interface FfmpegPort {
  /** Loads the core now rather than on first use (it is kept for later runs). */
  load(): Promise<void>;
  /**
   * Makes the media readable by ffmpeg without copying it whole into ffmpeg's memory (a
   * read-only mount) and returns its path.
   */
  mount(source: MediaSource): Promise<string>;
  unmount(path: string): Promise<void>;
  /** The first bytes of the media, to recognise files that are not media at all. */
  readHead(source: MediaSource, length: number): Promise<Uint8Array>;
  exec(args: readonly string[], options?: { signal?: AbortSignal }): Promise<FfmpegRun>;
  ffprobe(args: readonly string[], options?: { signal?: AbortSignal }): Promise<FfmpegRun>;
  writeFile(path: string, data: Uint8Array): Promise<void>;
  readFile(path: string): Promise<Uint8Array>;
  deleteFile(path: string): Promise<void>;
}

/** The host's `fetch` (the browser's, or Node's for the CLI). */
export type FetchPort = (url: string, init: { signal?: AbortSignal }) => Promise<Response>;

/**
 * Loads the voice activity detector (Silero VAD; `modelId` defaults to the production model),
 * once per model: later calls return the same detector. Node runs it in-process
 * (`loadSileroVad`); the browser in a worker of its own, so that it finds speech further on
 * while the recogniser works.
 */
export type SpeechDetectorLoader = (options: {
  signal?: AbortSignal;
  modelId?: string;
}) => Promise<SpeechDetector>;

/** What the media stage needs from its host. */
export interface MediaPorts {
  ffmpeg: FfmpegPort;
  speechDetector: SpeechDetectorLoader;
  /**
   * True where the detector runs in a thread of its own (the browser's worker): recognition
   * then starts while it is still finding speech. In one thread, taking turns only made the
   * whole slower (Node: 5.7 s against 4.4 s for a 74-s talk).
   */
  speechDetectionApart: boolean;
  fetch: FetchPort;
  clock: Clock;
  /**
   * True where a fetch is subject to the page's cross-origin rules (the browser): a failed
   * fetch is then most often a server that does not allow other sites to read its files.
   */
  crossOriginFetch: boolean;
}
