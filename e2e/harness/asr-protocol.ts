import type { Stage } from '../../src/core/stages';
import type { Dtype } from '../../src/engine/models/model-settings';
import type { Envelope, ErrorReply } from '../../src/worker/envelope';

/** What the benchmark page asks its worker: one run of a contender. */
export interface AsrBenchOptions {
  /** `whispercpp-wasm`: whisper.cpp's WASM build, served at /whispercpp/ by the benchmark. */
  contender: 'engine' | 'pipeline' | 'whispercpp-wasm';
  modelId: string;
  /** Tokens decoded per second of speech (generated weights never stop on their own)... */
  tokensPerSecond: number;
  /** ...which for the engine is this many per second of its windows (pauses shortened). */
  tokensPerStreamSecond: number;
  /** For the library's pipeline and whisper.cpp: tokens per 30-s chunk, as they decode every chunk alike. */
  tokensPerChunk: number;
  threads: number;
  /** The engine's encoder and decoder precisions, where not the device's defaults. */
  dtypes?: { encoderDtype?: Dtype; decoderDtype?: Dtype };
  /** Whether the engine posts the window being decoded (provisional text); on by default. */
  provisional?: boolean;
  /** Windows of speech the engine decodes together (its `batchWindows` setting; the device's own when not given). */
  batch?: number;
  /** Whether the engine's worker reports where recognition is after each segment (off by default). */
  reportProgress?: boolean;
}

export type AsrBenchRequest = Envelope<
  'run',
  AsrBenchOptions & {
    /** The recording, for the engine (which decodes it itself). */
    file: File;
    /** The same recording as raw 16 kHz mono float32, for the library's pipeline. */
    pcm: File;
  }
>;

export interface AsrBenchResult {
  contender: AsrBenchOptions['contender'];
  seconds: number;
  firstSegmentSeconds: number;
  /** When the first provisional text came (engine, with `provisional`), seconds. */
  firstProvisionalSeconds?: number;
  /**
   * When each first thing happened, seconds from the file's handing over (engine only): the
   * first VAD call's start and end, the first recogniser call of each kind (start), the first
   * encoder output, and how many decoder steps ran before the first segment.
   */
  marks?: Record<string, number>;
  audioSeconds: number;
  modelLoadSeconds: number;
  segments: number;
  /** The engine's own stage times (response metadata), seconds. */
  stages?: EngineStages;
  /** Seconds inside the recogniser's calls, and how many calls (engine only). */
  profile?: Record<string, { seconds: number; calls: number }>;
  /** whisper.cpp's: the time of all its passes, its windows and passes, its text (every pass). */
  whisperCpp?: { allPassesSeconds: number; windows: number; passes: number; text: string };
  crossOriginIsolated: boolean;
  threads: number;
}

export interface EngineStages {
  audio_conversion_time: number;
  vad_time: number;
  inference_time: number;
}

/**
 * Where the engine is: the end of the last segment posted, seconds into the file, and the
 * latest stage to report progress.
 */
export type AsrBenchProgress = Envelope<'progress', { heardSeconds: number; stage: Stage | null }>;

export type AsrBenchReply = Envelope<'result', AsrBenchResult> | ErrorReply;
