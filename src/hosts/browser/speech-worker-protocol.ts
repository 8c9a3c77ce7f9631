/**
 * Messages between the engine's worker and the worker that runs voice activity detection
 * (Silero VAD) in a thread of its own.
 */
import type { PcmArray } from '../../core/audio/pcm';
import type { NetworkRecord } from '../../core/network-note';
import type { Envelope, ErrorReply } from '../../worker/envelope';
import type { LifeReport } from '../../worker/worker-watch';

/** Which model the speech worker runs, sent with every call (it loads each once). */
export interface SpeechModel {
  modelHost: string;
  modelId: string;
}

export type ToSpeechWorker =
  | Envelope<'load', SpeechModel>
  /** `samples` begins at window `offset` of the channel; it is transferred. */
  | Envelope<'score', SpeechModel & { samples: PcmArray; offset: number; from: number; to: number }>
  | Envelope<'cancel', null>
  /** Test builds: the worker closes, as one ended by the browser. */
  | Envelope<'crash', null>;

export type FromSpeechWorker =
  | LifeReport
  | Envelope<'loaded', { streamWindows: number; warmupWindows: number }>
  | Envelope<'progress', { fraction: number | null; detail: string }>
  | Envelope<'scored', Float32Array>
  /** Requests this worker made, sent as the browser records them (id 0). */
  | Envelope<'network', NetworkRecord[]>
  | ErrorReply;
