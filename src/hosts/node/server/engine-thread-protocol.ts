import type { MediaLimits } from '../../../core/audio/media-limits';
import type { Script } from '../../../core/alignment/script';
import type { SpeakerTurn } from '../../../core/assemble/speakers';
import type { TranscriptionRequest } from '../../../core/contract/request';
import type { Segment, TranscriptionResponse } from '../../../core/contract/response';
import type { Stage } from '../../../core/stages';
import type { SpeakerRecognition } from '../../../core/voices/recognise';
import type { SpeakerVoice, Voice } from '../../../core/voices/voice';
import type { StageSettingsOverrides } from '../../../engine/stage-settings';
import type { DecodedAudioHeld } from '../../../engine/streams/decoded-media';
import type { Envelope, ErrorReply, WireError } from '../../../worker/envelope';
import type { NodeEngineSettings } from '../engine-ports';
import type { DiskFile } from '../media-file';

/** The engine's settings as they cross to its thread (data only: no functions, no ports). */
export type ThreadEngineSettings = Omit<
  NodeEngineSettings,
  'modelFiles' | 'ffmpeg' | 'ffmpegThread'
>;

/** What the thread is started with. */
export interface EngineThreadData {
  settings: ThreadEngineSettings;
  /**
   * Whether the thread (and the runtime's threads it starts) yields the cores to the thread
   * that started it: a server's, which must answer while every core transcribes. A command
   * line's transcription is the work the user asked for and keeps the process's priority.
   */
  yieldToCaller: boolean;
  /**
   * Whether the models are loaded before the thread says it is ready (a server's slot takes no
   * request before), or as a run needs them, beside its media (a single run: a media link that
   * cannot be fetched is then said before a model host that cannot be reached).
   */
  loadFirst: boolean;
}

/** One pipeline run, as it crosses: the request, and which of its events the caller hears. */
export interface ThreadRun {
  request: TranscriptionRequest<DiskFile>;
  limits?: MediaLimits;
  script?: Script;
  /** `PipelineOptions.settings`, where the host sets any (plain data: it crosses as it is). */
  settings?: StageSettingsOverrides;
  /** `PipelineOptions.voices`, where the host has any. */
  voices?: readonly Voice[];
  events: {
    progress: boolean;
    segments: boolean;
    turns: boolean;
    speakers: boolean;
    decodedAudio: boolean;
  };
}

/**
 * Calls from the main thread: a run, or the cancellation of one (with the reason its signal
 * was aborted with, so that its error body is the one it would have been here).
 */
export type EngineThreadCall =
  | Envelope<'run', ThreadRun>
  | Envelope<'cancel', WireError>
  /** Asked before the thread is ended: answered `settled` once no model is still loading. */
  | Envelope<'settle', null>
  /**
   * Asked once settled: the thread stops listening and ends by itself when nothing is left to
   * run, so that no native work of the runtime is cut off halfway.
   */
  | Envelope<'leave', null>;

/**
 * What the thread says: that its models are loaded (`ready`, id 0) or could not be (`error`,
 * id 0), and for a run its events, then its response or its error.
 */
export type EngineThreadReply =
  | Envelope<'ready', null>
  | Envelope<'settled', null>
  | Envelope<'progress', { stage: Stage; fraction: number | null; detail: string }>
  | Envelope<'segment', Segment>
  | Envelope<'turns', SpeakerTurn[]>
  | Envelope<'speakers', { speakers: SpeakerVoice[]; recognitions: SpeakerRecognition[] }>
  | Envelope<'decoded-audio', DecodedAudioHeld>
  | Envelope<'result', TranscriptionResponse>
  | ErrorReply;
