import type { WhisperVocabulary } from './vocabulary';

export interface RuleState {
  /** Tokens sampled so far after the prompt. */
  sampled: readonly number[];
  /**
   * Index of the last timestamp that may be emitted: the end of the audio actually in the
   * window (padding after it holds nothing to transcribe).
   */
  lastTimestampIndex: number;
  /** The first timestamp may not be later than this index (Whisper: 1.0 s = 50). */
  maxInitialTimestampIndex: number;
}

function logSumExp(values: Float32Array, from: number, to: number): number {
  let max = -Infinity;
  for (let i = from; i < to; i++) if (values[i]! > max) max = values[i]!;
  if (max === -Infinity) return -Infinity;
  let sum = 0;
  for (let i = from; i < to; i++) sum += Math.exp(values[i]! - max);
  return max + Math.log(sum);
}

function fill(logits: Float32Array, from: number, to: number): void {
  logits.fill(-Infinity, Math.max(0, from), Math.min(logits.length, to));
}

/**
 * Whisper's decoding rules, applied in place to the logits of the next token: suppressed
 * tokens; blank/end-of-text not first; timestamps in pairs and never going back; the first
 * token a timestamp no later than the initial limit; no timestamp past the audio's end; and a
 * timestamp forced when timestamps together are likelier than any single text token.
 */
export function applyDecodingRules(
  logits: Float32Array,
  vocab: WhisperVocabulary,
  state: RuleState,
): void {
  const tsBegin = vocab.timestampBegin;
  for (const id of vocab.suppress) logits[id] = -Infinity;
  logits[vocab.noTimestamps] = -Infinity;
  // Special tokens between end-of-text and the timestamps are never sampled.
  fill(logits, vocab.endOfText + 1, tsBegin);

  const seq = state.sampled;
  if (seq.length === 0) for (const id of vocab.beginSuppress) logits[id] = -Infinity;

  const last = seq.at(-1);
  const lastWasTimestamp = last !== undefined && last >= tsBegin;
  const penultimate = seq.at(-2);
  const penultimateWasTimestamp = seq.length < 2 || (penultimate as number) >= tsBegin;
  if (lastWasTimestamp) {
    if (penultimateWasTimestamp) fill(logits, tsBegin, logits.length);
    else fill(logits, 0, vocab.endOfText);
  }

  let lastTimestamp = -1;
  for (let i = seq.length - 1; i >= 0; i--) {
    if (seq[i]! >= tsBegin) {
      lastTimestamp = seq[i]! - tsBegin;
      break;
    }
  }
  if (lastTimestamp >= 0) {
    // A closing timestamp may repeat the opening one; otherwise time only moves forward.
    const floor = lastWasTimestamp && !penultimateWasTimestamp ? lastTimestamp : lastTimestamp + 1;
    fill(logits, tsBegin, tsBegin + floor);
  }

  if (seq.length === 0) {
    fill(logits, 0, tsBegin);
    fill(logits, tsBegin + state.maxInitialTimestampIndex + 1, logits.length);
  }
  fill(logits, tsBegin + state.lastTimestampIndex + 1, logits.length);

  // Timestamps together likelier than the best text token: both sides share the softmax's
  // normaliser, so comparing unnormalised values is the same test without a pass over the
  // whole vocabulary.
  const timestampMass = logSumExp(logits, tsBegin, logits.length);
  let bestText = -Infinity;
  for (let i = 0; i < tsBegin; i++) if (logits[i]! > bestText) bestText = logits[i]!;
  if (timestampMass > bestText) fill(logits, 0, tsBegin);
}
