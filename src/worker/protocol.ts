import type { Endpoint } from '../core/contract/endpoints';
import type { ErrorCode, FieldProblem } from '../core/contract/errors';
import type { Segment, TranscriptionResponse } from '../core/contract/response';

import type { Stage } from '../engine/stages';

export type { Stage };

export interface Progress {
  stage: Stage;
  /** 0..1 within the stage, or null when the stage cannot tell. */
  fraction: number | null;
  detail: string;
}

/** The multipart fields of a request: FormData itself cannot cross `postMessage`. */
export interface RequestFields {
  endpoint: Endpoint;
  strings: Record<string, string>;
  files: Record<string, File>;
}

export interface WireError {
  code: ErrorCode;
  message: string;
  problems: FieldProblem[];
}

/** Which models the worker uses and where it downloads them from. */
export interface EngineSettings {
  /** The hub, or a self-hosted mirror in the hub's layout. */
  modelHost: string;
  /** Model id of the recogniser (Whisper in the transformers.js layout). */
  whisperModel: string;
  /** Use WebGPU when the device has a real adapter; off: always WASM. */
  useGpu: boolean;
}

/** Messages from the page to the worker. */
export type ToWorker =
  | { id: number; type: 'configure'; data: EngineSettings }
  | { id: number; type: 'transcribe'; data: RequestFields };

/** Messages from the worker to the page. Progress and segments stream before the result. */
export type FromWorker =
  | { id: number; type: 'progress'; data: Progress }
  | { id: number; type: 'segment'; data: Segment }
  | { id: number; type: 'notice'; data: string }
  /** Where the recogniser runs: 'webgpu' or 'wasm'. */
  | { id: number; type: 'device'; data: string }
  | { id: number; type: 'result'; data: TranscriptionResponse }
  | { id: number; type: 'error'; data: WireError };
