/**
 * What the pipeline needs from its host. The browser and Node hosts pass their own
 * implementations; the pipeline never asks which host it runs in.
 */
import type { MediaFile } from '../core/contract/request';

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
