import { SECONDS_PER_TIMESTAMP } from '../../src/core/decoding/vocabulary';
import { toSeconds } from '../../src/core/units';
import type { LoadedWhisper } from '../../src/engine/ports';

/** A logit that outweighs every other of a generated model's (they lie within a few units). */
const SURE = 1e4;
/** Text tokens per segment: about 3 s of speech, as a real model's segments run. */
const SEGMENT_TEXT_TOKENS = 10;

/**
 * The tokens a real model would give a window of `seconds`: `count` tokens in all, cut into
 * segments of about SEGMENT_TEXT_TOKENS text tokens, each between two timestamps (a segment
 * opens where the last one closed), the last closing at the window's end; then end-of-text.
 * Text tokens vary, so that the text does not look like a loop.
 */
function plannedTokens(model: LoadedWhisper, seconds: number, count: number): number[] {
  const { vocab } = model;
  const lastIndex = Math.floor(seconds / SECONDS_PER_TIMESTAMP);
  const segments = Math.max(1, Math.round(count / (SEGMENT_TEXT_TOKENS + 2)));
  const text = Math.max(segments, count - 2 * segments);
  const tokens: number[] = [];
  let n = 0;
  for (let k = 0; k < segments; k++) {
    tokens.push(vocab.timestampBegin + Math.round((k / segments) * lastIndex));
    const words = Math.round(((k + 1) * text) / segments) - Math.round((k * text) / segments);
    for (let w = 0; w < words; w++) tokens.push(1000 + ((++n * 7919) % 40_000));
    tokens.push(vocab.timestampBegin + Math.round(((k + 1) / segments) * lastIndex));
  }
  tokens.push(vocab.endOfText);
  return tokens;
}

/**
 * Benchmark models have generated weights: they never end a decode and are unsure of every
 * token, so Whisper's rules would decode each window to the token limit at every fallback
 * temperature. This wraps such a model so that each decode is what a real model's looks like to
 * the engine: `tokensPerSecond` tokens per second of the window's audio, timestamps included,
 * in segments of a few seconds, each token sure. The cost of every encoder and decoder call
 * stays the model's own.
 */
export function forcedDecoding(model: LoadedWhisper, tokensPerSecond: number): LoadedWhisper {
  const windowSeconds = new WeakMap<object, number>();
  let seconds = 0;
  let plan: number[] = [];
  let sampled = 0;
  return {
    ...model,
    async features(audio) {
      seconds = toSeconds(audio.length);
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
        const s = windowSeconds.get(encoded) ?? 0;
        plan = plannedTokens(model, s, Math.max(3, Math.round(tokensPerSecond * s)));
        sampled = 0;
      } else sampled++;
      step.lastLogits[plan[Math.min(sampled, plan.length - 1)]!] = SURE;
      return step;
    },
  };
}
