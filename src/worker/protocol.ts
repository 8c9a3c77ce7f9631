import type { ProvisionalSegment } from '../core/assemble/provisional-segment';
import type { Endpoint } from '../core/contract/endpoints';
import type { LanguageBehaviour } from '../core/contract/request';
import type { CaptionUpdate } from '../core/live/captions';
import type { NetworkRecord } from '../core/network-note';
import type { Segment, TranscriptionResponse } from '../core/contract/response';
import type { Stage } from '../core/stages';
import type { SpeakerVoice } from '../core/voices/voice';
import type { Envelope, ErrorReply, WireError } from './envelope';
import type { RuntimeName, RuntimeProgress } from './runtimes';
import type { LifeReport } from './worker-watch';

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
  /** The text that was said, when the user gives it: its words are timed to the media. */
  script?: string;
}

/** Which models the worker uses and where it downloads them from. */
export interface EngineSettings {
  /** The hub, or a self-hosted mirror in the hub's layout. */
  modelHost: string;
  /** Model id of the recogniser (Whisper in the transformers.js layout). */
  whisperModel: string;
  /** Use WebGPU when the device has a real adapter; off: always WASM. */
  useGpu: boolean;
  /** Model id of the translation model (default: M2M100 418M, `DEFAULT_TRANSLATION_MODEL`). */
  translationModel?: string;
  /** Model id of the speaker-segmentation model (default `DEFAULT_SEGMENTATION_MODEL`). */
  segmentationModel?: string;
  /** Model id of the speaker-embedding model (default `DEFAULT_EMBEDDING_MODEL`). */
  embeddingModel?: string;
}

/**
 * How a test build's worker can be made to die on purpose: `trap`, a WebAssembly trap that
 * nothing catches (as a model runtime's fault surfaces); `exit`, the worker gone without a word
 * (as when the browser ends it for memory). Other builds ignore the message.
 */
export type CrashKind = 'trap' | 'exit';

/** Test builds: which worker dies on purpose, how, and when. */
export interface CrashOrder {
  kind: CrashKind;
  /**
   * `now`; `start`, the next such worker, before it takes its life lock (`exit` only); or once
   * the request reaches the stage.
   */
  at: 'now' | 'start' | Stage;
  /** The transcription worker, or the worker it runs voice activity detection in. */
  worker: 'transcription' | 'speech';
}

/** A live transcription of audio while it is recorded: what the page asks for. */
export interface ListenOptions {
  /** Channels of the audio the page sends (1: one source; 2: the microphone and a tab). */
  channels: number;
  /** The form's language options: `manual` uses `language`; the others detect it. */
  languageBehaviour: LanguageBehaviour;
  language: string | null;
  /** The form's transcription hint. */
  hint: string;
}

/** The next samples of each channel of a live transcription, at 16 kHz (transferred). */
export interface ListenAudio {
  channels: Float32Array[];
}

/** The models the page can download ahead of use (and delete), one of each kind. */
export type ModelRole = 'recognition' | 'vad' | 'translation' | 'segmentation' | 'embedding';

/** Messages from the page to the transcription worker. */
export type ToWorker =
  | Envelope<'configure', EngineSettings>
  | Envelope<'transcribe', RequestFields>
  | Envelope<'crash', CrashOrder>

  /** Downloads (and loads) one of the configured models ahead of a request. */
  | Envelope<'download', ModelRole>
  /** Fetches every runtime this device uses ahead of use, and keeps them for offline use. */
  | Envelope<'prepare-runtimes', null>
  /** Starts a live transcription; its audio follows in `listen-audio` messages of the same id. */
  | Envelope<'listen', ListenOptions>
  | Envelope<'listen-audio', ListenAudio>
  /** No more audio for the live transcription: it settles what it has, then says `listened`. */
  | Envelope<'listen-end', null>
  /** Stops the live transcription at once: nothing more is sent for it. */
  | Envelope<'listen-cancel', null>;

/** Messages from the transcription worker to the page. Progress and segments stream first. */
export type FromWorker =
  /** The worker holds its life lock (named by its `name`): its release means it has died. */
  | LifeReport
  | Envelope<'progress', Progress>
  | Envelope<'segment', Segment>
  /** The text of the window being decoded, before its checks; replaces the one before. */
  | Envelope<'provisional', ProvisionalSegment[]>
  | Envelope<'notice', string>
  /** Where the recogniser runs: 'webgpu' or 'wasm'. */
  | Envelope<'device', string>
  /**
   * The requests this worker and the workers it started made since the last such report, sent
   * just before a transcription's result (see network-note.ts).
   */
  | Envelope<'network', NetworkRecord[]>
  /**
   * The speakers diarization found, each with its embedding (transferred), just before the
   * result: what the page needs to remember a voice or recognise a stored one. Never part of
   * the result itself, so that no download or webhook carries them.
   */
  | Envelope<'speakers', SpeakerVoice[]>
  | Envelope<'result', TranscriptionResponse>
  /** What changed in a live transcription's captions. */
  | Envelope<'captions', CaptionUpdate>
  /** A live transcription has captioned all of its audio (after `listen-end`). */
  | Envelope<'listened', null>
  /** A `download` is done: the model is in the browser's cache and loaded. */
  | Envelope<'downloaded', ModelRole>
  /**
   * How far the fetch of a runtime has come (id 0: the runtimes are the worker's, whichever
   * call needed them first).
   */
  | Envelope<'runtime', RuntimeProgress>
  /** A `prepare-runtimes` is done: these runtimes are kept in the browser. */
  | Envelope<'prepared', RuntimeName[]>
  | ErrorReply
  /**
   * The worker's model runtime failed beyond repair (a WebAssembly trap, memory exhausted):
   * every call is over and the worker must be replaced.
   */
  | Envelope<'crashed', WireError>;
