/**
 * What the pipeline needs from its host. The browser and Node hosts pass their own
 * implementations; the pipeline never asks which host it runs in.
 */
import type { PcmArray } from '../core/audio/pcm';
import type { MediaFile } from '../core/contract/request';
import type { FileIdentity } from '../core/download/file-identity';
import type { WhisperVocabulary } from '../core/decoding/vocabulary';
import type { Device } from './models/model-settings';
import type { Tensor } from './models/transformers-port';

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
  /**
   * Bytes of mounted media the run read, where the host counts them (Node's does): what a seek
   * costs, whatever the machine's speed.
   */
  bytesRead?: number;
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

/**
 * A scratch file outside the heap that long decoded audio is kept in: written once, a block at
 * a time, and read back by stretches. Reads and writes are synchronous (Node's file calls, the
 * browser's origin-private file system in a worker). The host deletes it on `close`, and leaves
 * nothing behind if the process dies first.
 */
export interface SpillFile {
  write(bytes: Uint8Array, at: number): void;
  /** Fills `into` from byte `at`. */
  read(into: Uint8Array, at: number): void;
  close(): void;
}

/** Opens a fresh scratch file; null where the host has none to give (memory is used). */
export type SpillPort = () => Promise<SpillFile | null>;

/** The host's `fetch` (the browser's, or Node's for the CLI). */
export type FetchPort = (url: string, init: { signal?: AbortSignal }) => Promise<Response>;

/** The host's `fetch` with the options a resumable download needs. */
export type RangeFetchPort = (
  url: string,
  init: { signal?: AbortSignal; headers?: Record<string, string>; redirect?: 'follow' | 'manual' },
) => Promise<Response>;

/**
 * Where the part of a model file received so far is kept between tries and across reloads:
 * never where whole models are read from, so a part is never taken for a model.
 */
export interface PartStore {
  /** The part kept for `url`: what the host said of the file, and its first bytes. */
  read(url: string): Promise<{ identity: FileIdentity; bytes: Uint8Array } | null>;
  /** Writes `bytes` at `offset` of the part for `url`; at offset 0 a new part replaces any. */
  append(url: string, identity: FileIdentity, offset: number, bytes: Uint8Array): Promise<void>;
  drop(url: string): Promise<void>;
}

export interface ScoreOptions {
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /**
   * Windows to score, `from` (default 0) to `to` (default: all, the last one partial): a
   * channel can be scored piece by piece while it is still being decoded. A piece that starts
   * on a stream boundary (`streamWindows`) gets the same probabilities as scoring it whole.
   */
  from?: number;
  to?: number;
  /**
   * The window of the channel that `samples` begins at (default 0): a host that scores in
   * another thread is sent only the stretch a piece reads (see `pieceStart`).
   */
  offset?: number;
}

/** Voice activity detection: a speech probability per 512-sample window of 16 kHz audio. */
export interface SpeechDetector {
  /** Speech probability of each 512-sample window of a 16 kHz channel (or of `from`..`to`). */
  probabilities(samples: PcmArray, options?: ScoreOptions): Promise<Float32Array>;
  /** Windows per stream: pieces that start at multiples of it score as the whole would. */
  readonly streamWindows: number;
  /** Windows each stream after the first scores before its own (see `StreamLayout`). */
  readonly warmupWindows: number;
  /**
   * Whether scoring runs in a thread of its own (the browser's VAD worker), beside recognition:
   * then the speech stage publishes speech as it is found, so that the page shows segments
   * early. In one thread (Node) it publishes a channel once all of its speech is found: taking
   * turns made no difference beyond noise there (121-s recording, `npm run bench:asr`: 5.7 s
   * against 5.6 s, first segment 1.9 s against 2.1 s), and Node's callers (the CLI) wait for
   * the whole response anyway.
   */
  readonly runsApart: boolean;
}

/**
 * Loads the voice activity detector (Silero VAD, the model the host was set up with), once:
 * later calls return the same detector. Node runs it in-process; the browser in a worker of
 * its own, so that it finds speech further on while the recogniser works.
 */
export type SpeechDetectorLoader = (options: { signal?: AbortSignal }) => Promise<SpeechDetector>;

/** What the decoding loop needs of one step of the decoder. */
export interface DecoderStep {
  /** Logits of the last position, one row of the vocabulary. */
  lastLogits: Float32Array;
  /** Logits of every position of this step's input, for reading earlier rows (no-speech). */
  logitsAt(position: number): Float32Array;
  /** Cross-attention of the alignment heads for the last position: [head][frame]. */
  alignmentRows: Float32Array[];
  past: PastKeyValues;
}

/** The decoder's keys and values so far, as onnxruntime tensors (on the GPU with WebGPU). */
export type PastKeyValues = Record<string, OrtTensor>;

/**
 * One step of the decoder for several sequences at once (a batch): one `DecoderStep` per row,
 * in the order the rows were given, and the keys and values of them all.
 */
export interface BatchStep {
  rows: Omit<DecoderStep, 'past'>[];
  past: PastKeyValues;
}

export interface LoadedWhisper {
  id: string;
  device: Device;
  vocab: WhisperVocabulary;
  /** Samples per window (chunk_length x sampling_rate) and encoder frames per window. */
  windowSamples: number;
  encoderFrames: number;
  /** Decoder context; prompts are at most half of it (Whisper's rule). */
  maxTargetPositions: number;
  medianFilterWidth: number;
  /** The latest first timestamp, in 0.02-s steps (generation config; Whisper's is 1.0 s). */
  maxInitialTimestampIndex: number;
  features(audio: Float32Array): Promise<Tensor>;
  encode(features: Tensor): Promise<Tensor>;
  step(
    encoded: Tensor,
    tokens: readonly number[],
    past: PastKeyValues | null,
  ): Promise<DecoderStep>;
  /** Frees keys and values held on the GPU once a decode is done with them. */
  releasePast(past: PastKeyValues): void;
  /**
   * Several windows' features through the encoder in one pass (a batch): one encoded window
   * per features given, each as `encode` would return it.
   */
  encodeBatch(features: readonly Tensor[]): Promise<Tensor[]>;
  /**
   * One decoder step for several sequences at once. The decoder takes no attention mask, so
   * every row is at the same position: the first step's prompts are all of one length, and
   * each later step gives one token per row. `encoded` holds each row's encoded window (read
   * on the first step only).
   */
  stepBatch(
    encoded: readonly Tensor[],
    tokens: readonly (readonly number[])[],
    past: PastKeyValues | null,
  ): Promise<BatchStep>;
  /**
   * The keys and values of the rows `kept` (indices into the batch, in order) only: the rows
   * of sequences that have ended leave the batch. `past` is released.
   */
  keepRows(past: PastKeyValues, kept: readonly number[]): Promise<PastKeyValues>;
  encodeText(text: string): number[];
  decodeText(tokens: readonly number[]): string;
  tokenText(token: number): string;
  dispose(): Promise<void>;
}

/** The parts of an onnxruntime tensor and session (web or Node) the engine uses. */
export interface OrtTensor {
  dims: readonly number[];
  data: unknown;
  location?: string;
  dispose?(): void;
}

/** Loads the recogniser the host was set up with, once per model and device. */
export type RecogniserLoader = (options: {
  signal?: AbortSignal;
  onProgress?: ProgressListener;
}) => Promise<LoadedWhisper>;

/**
 * A translation model, loaded: translates texts from one language into another. Languages are
 * the model's own codes (`fr` for M2M100, `fra_Latn` for NLLB-200).
 */
export interface LoadedTranslator {
  id: string;
  translate(
    texts: readonly string[],
    from: string,
    to: string,
    options?: { signal?: AbortSignal },
  ): Promise<string[]>;
  dispose(): Promise<void>;
}

/** The translation model the host was set up with: its id, and its loader (once per id). */
export interface TranslatorPort {
  modelId: string;
  load(options: { signal?: AbortSignal; onProgress?: ProgressListener }): Promise<LoadedTranslator>;
}

/**
 * The speaker models, loaded: a segmentation model (pyannote segmentation 3.0's inputs and
 * outputs) and a speaker-embedding model (WeSpeaker ResNet34's).
 */
export interface LoadedSpeakerModels {
  segmentationId: string;
  embeddingId: string;
  sampleRate: number;
  /** Samples the segmentation model looks at at once. */
  windowSamples: number;
  /** Samples between the segmentation model's frames, and the span one frame sees. */
  frameStep: number;
  frameSpan: number;
  /** Cosine distance under which two clusters are one speaker (see `EmbeddingChoice`). */
  clusteringThreshold: number;
  /** Distances at which a speaker is given or offered a stored voice's name. */
  voiceThresholds: { match: number; near: number };
  /** Per window (each `windowSamples` long): logits, `frames * classes`. */
  segment(
    windows: readonly Float32Array[],
  ): Promise<{ logits: Float32Array; frames: number; classes: number }[]>;
  /**
   * One embedding per stretch of 16 kHz audio, in order. Stretches of the same length go
   * through the model together (one call, a batch); the caller decides how many at once.
   */
  embed(stretches: readonly Float32Array[]): Promise<Float32Array[]>;
  dispose(): Promise<void>;
}

/** The speaker models the host was set up with: their ids, and their loader (once per pair). */
export interface SpeakerModelsPort {
  segmentationId: string;
  embeddingId: string;
  load(options: {
    signal?: AbortSignal;
    onProgress?: ProgressListener;
  }): Promise<LoadedSpeakerModels>;
}

/** An audio-classification model that tells emotion from the voice, loaded. */
export interface LoadedEmotionModel {
  id: string;
  sampleRate: number;
  /** The model's own class names, in the order of its scores. */
  labels: readonly string[];
  /** Probabilities over `labels` for one stretch of 16 kHz mono audio. */
  classify(audio: Float32Array): Promise<Float32Array>;
}

/** Loads emotion models by id from the host's model source, each kept once loaded. */
export interface EmotionModelsPort {
  load(
    id: string,
    options: { signal?: AbortSignal; onProgress?: ProgressListener },
  ): Promise<LoadedEmotionModel>;
}

/**
 * Kept word lists the understanding stages read, loaded the host's way (a bundler's chunk
 * fetched when first needed in the browser, a package file in Node).
 */
export interface WordListsPort {
  /** The sentiment word list of a language (valences -5..+5); `null` where there is none. */
  sentiment(language: string): Promise<Readonly<Record<string, number>> | null>;
}

/**
 * Everything the pipeline needs from its host, built once by the host's composition root
 * (hosts/node/engine-ports.ts, hosts/browser/engine-ports.ts) and kept: ffmpeg and the models
 * load on first use and stay loaded for later requests.
 */
export interface EnginePorts {
  ffmpeg: FfmpegPort;
  fetch: FetchPort;
  /**
   * True where a fetch is subject to the page's cross-origin rules (the browser): a failed
   * fetch is then most often a server that does not allow other sites to read its files.
   */
  crossOriginFetch: boolean;
  /**
   * How long a media URL may take to answer and to send more of its body before the request
   * fails with `url_fetch_failed` (default: the media settings' `fetchTimeoutSeconds`, 30 s).
   */
  fetchTimeoutSeconds?: number;
  speechDetector: SpeechDetectorLoader;
  recogniser: RecogniserLoader;
  /** Absent: this host does not translate (requests to translate are refused). */
  translator?: TranslatorPort;
  /** Absent: this host does not tell speakers apart (requests for it are refused). */
  speakers?: SpeakerModelsPort;
  /**
   * Absent: decoded audio stays in memory whatever its length. Present: audio long enough to
   * be kept 16-bit is kept in a scratch file, so memory does not grow with the length.
   */
  spill?: SpillPort;
  wordLists: WordListsPort;
  /** Absent: this host tells no emotion from the voice (requests naming a model are refused). */
  emotionModels?: EmotionModelsPort;
  clock: Clock;
}
