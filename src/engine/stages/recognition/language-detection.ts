import { languageProbabilities } from '../../../core/decoding/probabilities';
import type { StreamAudio } from '../../../core/decoding/speech-streams';
import type { LoadedWhisper } from '../../ports';
import type { Tensor } from '../../models/transformers-port';

/** A window's encoder output, kept when the same window is decoded next. */
export interface EncodedWindow {
  audio: Float32Array;
  encoded: Tensor;
}

/** A window whose language probabilities were read. */
export interface DetectedWindow {
  window: EncodedWindow;
  probabilities: Map<string, number>;
}

export async function encodeWindow(
  model: LoadedWhisper,
  audio: Float32Array,
): Promise<EncodedWindow> {
  return { audio, encoded: await model.encode(await model.features(audio)) };
}

/** The language-token probabilities after `<|startoftranscript|>`: Whisper's detection. */
export async function detectLanguage(
  model: LoadedWhisper,
  window: EncodedWindow,
  signal?: AbortSignal,
): Promise<Map<string, number>> {
  signal?.throwIfAborted();
  const step = await model.step(window.encoded, [model.vocab.startOfTranscript], null);
  model.releasePast(step.past);
  return languageProbabilities(step.lastLogits, model.vocab.languages);
}

export function likeliest(probabilities: Map<string, number>): string {
  let code = 'en';
  let p = -1;
  for (const [c, q] of probabilities) if (q > p) [code, p] = [c, q];
  return code;
}

/**
 * The prominent language of the speech: language probabilities of up to three windows spread
 * over the speech (start, middle, end), weighted by the seconds of speech each holds. The
 * first window's encoding is returned for the decoding that starts there; `known` is that
 * window already detected (its audio does not change as the channel grows).
 */
export async function prominentLanguage(
  model: LoadedWhisper,
  streams: readonly StreamAudio[],
  signal?: AbortSignal,
  known?: DetectedWindow,
): Promise<{ language: string; first: EncodedWindow | null }> {
  const windowLength = model.windowSamples;
  const total = streams.reduce((n, s) => n + s.length, 0);
  if (total === 0) return { language: 'en', first: null };
  const picks = total <= windowLength ? [0] : [0, 0.5, 1].map((f) => f * (total - windowLength));
  const sums = new Map<string, number>();
  let first: EncodedWindow | null = null;
  for (const pick of [...new Set(picks.map((p) => Math.round(p)))]) {
    // Find the stream and offset that the pick falls in.
    let offset = pick;
    const stream = streams.find((s) => {
      if (offset < s.length) return true;
      offset -= s.length;
      return false;
    });
    if (!stream) continue;
    const audio = stream.read(offset, offset + windowLength);
    const reuse = pick === 0 && known?.window.audio.length === audio.length;
    const window = reuse ? known.window : await encodeWindow(model, audio);
    if (pick === 0) first = window;
    const probabilities = reuse ? known.probabilities : await detectLanguage(model, window, signal);
    const weight = window.audio.length;
    for (const [code, p] of probabilities) sums.set(code, (sums.get(code) ?? 0) + p * weight);
  }
  return { language: likeliest(sums), first };
}
