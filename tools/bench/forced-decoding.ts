import type { LoadedWhisper } from '../../src/engine/ports';

/** A logit that outweighs every other of a generated model's (they lie within a few units). */
const SURE = 1e4;

/**
 * Benchmark models have generated weights: they never end a decode and are unsure of every
 * token, so Whisper's rules would decode each window to the token limit at every fallback
 * temperature. This wraps such a model so that each decode is what a real model's would look
 * like to the engine: a timestamp, then `tokensPerSecond` text tokens per second of the
 * window's audio (varied, so that the text does not look like a loop), then end-of-text, each
 * of them sure. The cost of every encoder and decoder call stays the model's own.
 */
export function forcedDecoding(model: LoadedWhisper, tokensPerSecond: number): LoadedWhisper {
  const windowSeconds = new WeakMap<object, number>();
  let seconds = 0;
  let sampled = 0;
  let forced = 1;
  return {
    ...model,
    async features(audio) {
      seconds = audio.length / 16_000;
      return model.features(audio);
    },
    async encode(features) {
      const encoded = await model.encode(features);
      windowSeconds.set(encoded, seconds);
      return encoded;
    },
    async step(encoded, tokens, past) {
      const step = await model.step(encoded, tokens, past);
      if (past === null) {
        sampled = 0;
        forced = Math.max(1, Math.round(tokensPerSecond * (windowSeconds.get(encoded) ?? 0)));
      } else sampled++;
      const { vocab } = model;
      const token =
        sampled === 0
          ? vocab.timestampBegin
          : sampled > forced
            ? vocab.endOfText
            : 1000 + ((sampled * 7919) % 40_000);
      step.lastLogits[token] = SURE;
      return step;
    },
  };
}
