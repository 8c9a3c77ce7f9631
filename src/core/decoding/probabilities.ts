/** log(softmax(x)) of a logits row, computed stably. */
export function logSoftmax(logits: Float32Array, temperature = 1): Float32Array {
  const out = new Float32Array(logits.length);
  let max = -Infinity;
  for (const v of logits) if (v > max) max = v;
  let sum = 0;
  for (let i = 0; i < logits.length; i++) {
    const x = (logits[i]! - max) / temperature;
    out[i] = x;
    sum += Math.exp(x);
  }
  const log = Math.log(sum);
  for (let i = 0; i < out.length; i++) out[i] = out[i]! - log;
  return out;
}

/** log(sum(exp(x))) over a logits row, without allocating. */
export function logSumExp(values: Float32Array): number {
  let max = -Infinity;
  for (const v of values) if (v > max) max = v;
  if (max === -Infinity) return -Infinity;
  let sum = 0;
  for (const v of values) sum += Math.exp(v - max);
  return max + Math.log(sum);
}

/**
 * The exponentials of a logits row, shifted by its maximum, written into `exps`, and the row's
 * log-normaliser. With `keptLogSumExp` the normaliser of the same row after some entries were
 * set to -Infinity follows without a second pass of `Math.exp` (the costly part per token).
 */
export function shiftedExps(
  values: Float32Array,
  exps: Float32Array,
): { max: number; logSum: number } {
  let max = -Infinity;
  for (const v of values) if (v > max) max = v;
  if (max === -Infinity) return { max, logSum: -Infinity };
  let sum = 0;
  for (let i = 0; i < values.length; i++) {
    const e = Math.exp(values[i]! - max);
    exps[i] = e;
    sum += e;
  }
  return { max, logSum: max + Math.log(sum) };
}

/** log(sum(exp(x))) over the entries of `masked` that are not -Infinity, from `shiftedExps`. */
export function keptLogSumExp(masked: Float32Array, exps: Float32Array, max: number): number {
  let sum = 0;
  for (let i = 0; i < masked.length; i++) if (masked[i] !== -Infinity) sum += exps[i]!;
  return sum > 0 ? max + Math.log(sum) : -Infinity;
}

export function argmax(values: Float32Array): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! > values[best]!) best = i;
  return best;
}

/** A small seeded generator (mulberry32): fallback sampling is repeatable run to run. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Draws a token from softmax(logits / temperature). */
export function sampleToken(
  logits: Float32Array,
  temperature: number,
  random: () => number,
): number {
  const logp = logSoftmax(logits, temperature);
  let r = random();
  for (let i = 0; i < logp.length; i++) {
    r -= Math.exp(logp[i]!);
    if (r <= 0) return i;
  }
  return argmax(logp);
}

/**
 * Probabilities of each language given the logits after start-of-transcript: a softmax over
 * the language tokens only, so the model's other preferences do not dilute them.
 */
export function languageProbabilities(
  logits: Float32Array,
  languages: ReadonlyMap<string, number>,
): Map<string, number> {
  let max = -Infinity;
  for (const id of languages.values()) max = Math.max(max, logits[id]!);
  let sum = 0;
  const exp = new Map<string, number>();
  for (const [code, id] of languages) {
    const e = Math.exp(logits[id]! - max);
    exp.set(code, e);
    sum += e;
  }
  for (const [code, e] of exp) exp.set(code, e / sum);
  return exp;
}
