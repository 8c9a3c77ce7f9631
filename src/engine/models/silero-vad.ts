import {
  DEFAULT_LEVEL_NORMALISATION,
  normalisingGain,
  type LevelNormalisation,
} from '../../core/audio/level-normalisation';
import type { PcmArray } from '../../core/audio/pcm';
import { modelFailureMessage } from '../../core/model-failure';
import { ServiceError } from '../../core/contract/errors';
import { SILERO_VAD } from '../../core/model-catalog';
import { SAMPLE_RATE, toSamples } from '../../core/units';
import type {
  ModelFiles,
  OnnxRuntime,
  OnnxSession,
  ProgressListener,
  ScoreOptions,
  SpeechDetector,
} from '../ports';
import { ModelCache } from './model-cache';

/** Silero VAD v5 at 16 kHz scores windows of 512 samples... */
export const VAD_WINDOW = 512;
/** ...each preceded by the last 64 samples of the previous window (576 inputs). */
const CONTEXT = 64;
/** At most this many streams are scored side by side in one batch. */
const MAX_STREAMS = 64;
/**
 * A channel is cut into independent streams of this length, at fixed times (0, 8 s, 16 s...),
 * so that the probabilities do not depend on how much of the channel is scored at once.
 * Each run of the model has a fixed cost besides its batch (in the browser, a large share), so
 * many short streams side by side are faster than a few long ones: 284 steps of 15 streams took
 * 2.2 s where 938 steps of 4 took 3.3 s (121 s of audio, Chromium).
 */
const STREAM_SECONDS = 8;
/**
 * 1 s of warm-up per stream. The model's state remembers for longer than that, so a cut is
 * not invisible, but against reference speaker turns (90 s of meetings) the detection error
 * was about the same as one unbroken pass: 17.7% against 17.4%.
 */
const WARMUP_WINDOWS = 32;

const sessions = new WeakMap<OnnxRuntime, ModelCache<OnnxSession>>();

/**
 * Loads Silero VAD once per runtime, model host and model id, and keeps it for later requests.
 * `modelId` defaults to the production model (`SILERO_VAD.id`); tests pass their local copy's.
 */
export async function loadSileroVad(
  onnx: OnnxRuntime,
  models: ModelFiles,
  options: {
    signal?: AbortSignal;
    onProgress?: ProgressListener;
    modelId?: string;
    /** How long channels are cut for batching (the default unless comparing layouts). */
    layout?: StreamLayout;
    /** Each stream's level brought up before scoring (null: scored as it is). */
    level?: LevelNormalisation | null;
  } = {},
): Promise<SpeechDetector> {
  const modelId = options.modelId ?? SILERO_VAD.id;
  let cache = sessions.get(onnx);
  if (cache === undefined) {
    cache = new ModelCache();
    sessions.set(onnx, cache);
  }
  const session = cache.get(`${models.host}|${modelId}`, () =>
    models
      .get(modelId, SILERO_VAD.file, options)
      .then((bytes) => onnx.createSession(bytes))
      .catch((e: unknown) => {
        if (e instanceof Error && e.name === 'AbortError') throw e;
        const detail = e instanceof Error ? e.message : String(e);
        throw new ServiceError(
          'engine_unavailable',
          modelFailureMessage('voice activity', modelId, models.host, detail),
        );
      }),
  );
  return new SileroVad(
    onnx,
    await session,
    options.layout,
    options.level === undefined ? DEFAULT_LEVEL_NORMALISATION : options.level,
  );
}

/**
 * The first window that scoring `from`.. reads: the start of its first stream, less that
 * stream's warm-up.
 */
export function pieceStart(detector: SpeechDetector, from: number): number {
  const size = detector.streamWindows;
  if (!Number.isFinite(size)) return 0;
  return Math.max(0, Math.floor(from / size) * size - detector.warmupWindows);
}

/** How a channel is cut into streams that are scored side by side, one batch per step. */
export interface StreamLayout {
  /** Seconds per stream (Infinity: one unbroken pass). */
  streamSeconds: number;
  maxStreams: number;
  /**
   * Windows that each stream after the first scores before its own and throws away, so that
   * the model's state has heard some of the audio before its first kept window.
   */
  warmupWindows: number;
}

export const DEFAULT_LAYOUT: StreamLayout = {
  streamSeconds: STREAM_SECONDS,
  maxStreams: MAX_STREAMS,
  warmupWindows: WARMUP_WINDOWS,
};

class SileroVad implements SpeechDetector {
  readonly streamWindows: number;
  readonly warmupWindows: number;
  /** In-process: scoring takes turns with whatever else runs in this thread. */
  readonly runsApart = false;

  constructor(
    private readonly onnx: OnnxRuntime,
    private readonly session: OnnxSession,
    private readonly layout: StreamLayout = DEFAULT_LAYOUT,
    private readonly level: LevelNormalisation | null = DEFAULT_LEVEL_NORMALISATION,
  ) {
    const windows = toSamples(layout.streamSeconds) / VAD_WINDOW;
    this.streamWindows = Number.isFinite(windows) ? Math.max(1, Math.round(windows)) : Infinity;
    this.warmupWindows = layout.warmupWindows;
  }

  async probabilities(samples: PcmArray, options: ScoreOptions = {}): Promise<Float32Array> {
    const from = options.from ?? 0;
    const base = (options.offset ?? 0) * VAD_WINDOW;
    const to = options.to ?? Math.ceil((base + samples.length) / VAD_WINDOW);
    const result = new Float32Array(Math.max(0, to - from));
    // The streams the range touches, at fixed boundaries; each scores only its part in range.
    const size = this.streamWindows;
    const starts: number[] = [];
    if (size === Infinity) {
      if (to > from) starts.push(0);
    } else {
      for (let start = Math.floor(from / size) * size; start < to; start += size) {
        starts.push(start);
      }
    }
    const total = starts.length;
    for (let b = 0; b < total; b += this.layout.maxStreams) {
      await this.scoreBatch(
        samples,
        starts.slice(b, b + this.layout.maxStreams),
        from,
        to,
        result,
        {
          ...options,
          onProgress: options.onProgress
            ? (fraction, detail) =>
                options.onProgress!(
                  fraction === null
                    ? null
                    : (b + fraction * Math.min(this.layout.maxStreams, total - b)) / total,
                  detail,
                )
            : undefined,
        },
      );
    }
    return result;
  }

  /** Streams side by side, each from `start` (with its warm-up) to its end, within from..to. */
  private async scoreBatch(
    samples: PcmArray,
    starts: readonly number[],
    from: number,
    to: number,
    result: Float32Array,
    options: ScoreOptions,
  ): Promise<void> {
    const size = this.streamWindows;
    const base = (options.offset ?? 0) * VAD_WINDOW;
    const streams = starts.length;
    const first = (s: number) => Math.max(from, starts[s]!);
    const last = (s: number) => Math.min(to, starts[s]! + size);
    const lead = (s: number) => Math.min(this.layout.warmupWindows, starts[s]!);
    // Stream s scores windows starts(s) - lead(s) ...; only first(s)..last(s) are kept.
    const begin = (s: number) => starts[s]! - lead(s);
    const steps = Math.max(...starts.map((_, s) => last(s) - begin(s)));
    const row = CONTEXT + VAD_WINDOW;
    // Each stream is brought to a working level by a gain measured on the whole stream, its
    // warm-up included, whatever part of it is kept: so a stream gets the same gain however
    // the channel is cut into pieces (the speech stage's pieces end on stream boundaries).
    // 16-bit samples are brought to floats on the way in, a window at a time.
    const scale = samples instanceof Int16Array ? 1 / 32768 : 1;
    const gains = starts.map((_, s) => {
      if (this.level === null) return scale;
      const end = size === Infinity ? samples.length : (starts[s]! + size) * VAD_WINDOW - base;
      const span = samples.subarray(
        Math.max(0, begin(s) * VAD_WINDOW - base),
        Math.max(0, Math.min(samples.length, end)),
      );
      return normalisingGain(span, VAD_WINDOW, this.level) * scale;
    });
    const input = new Float32Array(streams * row);
    let state = new Float32Array(2 * streams * 128);
    const sr = this.onnx.tensor('int64', BigInt64Array.from([BigInt(SAMPLE_RATE)]), []);
    for (let step = 0; step < steps; step++) {
      if (step % 256 === 0) {
        options.signal?.throwIfAborted();
        options.onProgress?.(step / steps, 'Finding speech');
        // Let other work (progress messages, cancel) in between batches.
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      let active = 0;
      for (let s = 0; s < streams; s++) {
        const window = begin(s) + step;
        const slot = input.subarray(s * row, (s + 1) * row);
        slot.fill(0);
        if (window >= last(s)) continue;
        active++;
        const start = window * VAD_WINDOW - base;
        // The context is the previous window's tail, within this stream only.
        if (step > 0) slot.set(samples.subarray(start - CONTEXT, start), 0);
        slot.set(samples.subarray(start, Math.min(samples.length, start + VAD_WINDOW)), CONTEXT);
        const gain = gains[s]!;
        if (gain !== 1) {
          for (let i = 0; i < row; i++) slot[i] = Math.max(-1, Math.min(1, slot[i]! * gain));
        }
      }
      if (active === 0) break;
      const outputs = await this.session.run({
        input: this.onnx.tensor('float32', input, [streams, row]),
        state: this.onnx.tensor('float32', state, [2, streams, 128]),
        sr,
      });
      const probability = outputs['output']!.data as Float32Array;
      state = Float32Array.from(outputs['stateN']!.data as Float32Array);
      for (let s = 0; s < streams; s++) {
        const window = begin(s) + step;
        if (window >= first(s) && window < last(s)) result[window - from] = probability[s]!;
      }
    }
  }
}
