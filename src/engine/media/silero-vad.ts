import { ServiceError } from '../../core/contract/errors';
import { SILERO_VAD } from '../../core/model-catalog';
import type { ModelFiles, OnnxRuntime, OnnxSession, ProgressListener } from '../ports';
import { SAMPLE_RATE } from './prepared-audio';

/** Silero VAD v5 at 16 kHz scores windows of 512 samples... */
export const VAD_WINDOW = 512;
/** ...each preceded by the last 64 samples of the previous window (576 inputs). */
const CONTEXT = 64;
/** Long channels are cut into this many independent streams, scored side by side in a batch. */
const MAX_STREAMS = 64;
/** No stream is shorter than this, so that restarting the model's state is rare. */
const MIN_STREAM_SECONDS = 30;

export interface SpeechDetector {
  /** Speech probability of each 512-sample window of a 16 kHz channel. */
  probabilities(
    samples: Float32Array,
    options?: { signal?: AbortSignal; onProgress?: ProgressListener },
  ): Promise<Float32Array>;
}

const sessions = new WeakMap<OnnxRuntime, Map<string, Promise<OnnxSession>>>();

/**
 * Loads Silero VAD once per runtime, model host and model id, and keeps it for later requests.
 * `modelId` defaults to the production model (`SILERO_VAD.id`); tests pass their local copy's.
 */
export async function loadSileroVad(
  onnx: OnnxRuntime,
  models: ModelFiles,
  options: { signal?: AbortSignal; onProgress?: ProgressListener; modelId?: string } = {},
): Promise<SpeechDetector> {
  const modelId = options.modelId ?? SILERO_VAD.id;
  const key = `${models.host}|${modelId}`;
  let byHost = sessions.get(onnx);
  if (byHost === undefined) {
    byHost = new Map();
    sessions.set(onnx, byHost);
  }
  let session = byHost.get(key);
  if (session === undefined) {
    const loading = models
      .get(modelId, SILERO_VAD.file, options)
      .then((bytes) => onnx.createSession(bytes))
      .catch((e: unknown) => {
        if (e instanceof Error && e.name === 'AbortError') throw e;
        const detail = e instanceof Error ? e.message : String(e);
        throw new ServiceError(
          'engine_unavailable',
          `The voice activity model ${modelId} could not be loaded from ${models.host}: ${detail}`,
        );
      });
    byHost.set(key, loading);
    loading.catch(() => byHost.delete(key));
    session = loading;
  }
  return new SileroVad(onnx, await session);
}

class SileroVad implements SpeechDetector {
  constructor(
    private readonly onnx: OnnxRuntime,
    private readonly session: OnnxSession,
  ) {}

  async probabilities(
    samples: Float32Array,
    options: { signal?: AbortSignal; onProgress?: ProgressListener } = {},
  ): Promise<Float32Array> {
    const windows = Math.ceil(samples.length / VAD_WINDOW);
    const result = new Float32Array(windows);
    if (windows === 0) return result;
    const streams = Math.max(
      1,
      Math.min(MAX_STREAMS, Math.floor(samples.length / (MIN_STREAM_SECONDS * SAMPLE_RATE))),
    );
    const perStream = Math.ceil(windows / streams);
    const input = new Float32Array(streams * (CONTEXT + VAD_WINDOW));
    let state = new Float32Array(2 * streams * 128);
    const sr = this.onnx.tensor('int64', BigInt64Array.from([BigInt(SAMPLE_RATE)]), []);
    for (let w = 0; w < perStream; w++) {
      if (w % 256 === 0) {
        options.signal?.throwIfAborted();
        options.onProgress?.(w / perStream, 'Finding speech');
        // Let other work (progress messages, cancel) in between batches.
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      let active = 0;
      for (let s = 0; s < streams; s++) {
        const window = s * perStream + w;
        const row = input.subarray(s * (CONTEXT + VAD_WINDOW), (s + 1) * (CONTEXT + VAD_WINDOW));
        row.fill(0);
        if (window >= windows || w >= perStream) continue;
        active++;
        const start = window * VAD_WINDOW;
        // The context is the previous window's tail, within this stream only.
        if (w > 0) row.set(samples.subarray(start - CONTEXT, start), 0);
        row.set(samples.subarray(start, Math.min(samples.length, start + VAD_WINDOW)), CONTEXT);
      }
      if (active === 0) break;
      const outputs = await this.session.run({
        input: this.onnx.tensor('float32', input, [streams, CONTEXT + VAD_WINDOW]),
        state: this.onnx.tensor('float32', state, [2, streams, 128]),
        sr,
      });
      const probability = outputs['output']!.data as Float32Array;
      state = Float32Array.from(outputs['stateN']!.data as Float32Array);
      for (let s = 0; s < streams; s++) {
        const window = s * perStream + w;
        if (window < windows) result[window] = probability[s]!;
      }
    }
    return result;
  }
}
