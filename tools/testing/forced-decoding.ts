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
  const featureSeconds = new WeakMap<object, number>();
  const windowSeconds = new WeakMap<object, number>();
  // Each window's plan and how far its decode is (a window decoded alone, or a row of a batch).
  const decodes = new WeakMap<object, { plan: number[]; sampled: number }>();
  const start = (encoded: object) => {
    const s = windowSeconds.get(encoded) ?? 0;
    const plan = plannedTokens(model, s, Math.max(3, Math.round(tokensPerSecond * s)));
    decodes.set(encoded, { plan, sampled: 0 });
  };
  const steer = (encoded: object, first: boolean, logits: Float32Array) => {
    if (first) start(encoded);
    const decode = decodes.get(encoded)!;
    if (!first) decode.sampled++;
    logits[decode.plan[Math.min(decode.sampled, decode.plan.length - 1)]!] = SURE;
  };
  return {
    ...model,
    async features(audio) {
      const features = await model.features(audio);
      featureSeconds.set(features, toSeconds(audio.length));
      return features;
    },
    async encode(features) {
      const encoded = await model.encode(features);
      windowSeconds.set(encoded, featureSeconds.get(features) ?? 0);
      return encoded;
    },
    async encodeBatch(features) {
      const encoded = await model.encodeBatch(features);
      encoded.forEach((e, i) => windowSeconds.set(e, featureSeconds.get(features[i]!) ?? 0));
      return encoded;
    },
    async step(encoded, tokens, past) {
      const step = await model.step(encoded, tokens, past);
      steer(encoded, past === null, step.lastLogits);
      return step;
    },
    async stepBatch(encoded, tokens, past) {
      const step = await model.stepBatch(encoded, tokens, past);
      step.rows.forEach((row, i) => steer(encoded[i]!, past === null, row.lastLogits));
      return step;
    },
  };
}
