import { compressionRatio } from '../../../core/decoding/compression-ratio';
import { applyDecodingRules } from '../../../core/decoding/logit-rules';
import {
  argmax,
  keptLogSumExp,
  sampleToken,
  shiftedExps,
} from '../../../core/decoding/probabilities';
import type { LoadedWhisper } from '../../ports';
import type { WindowDecode } from './decode-window';

export interface SequenceOptions {
  /** The window's last timestamp, in 0.02-s steps. */
  lastTimestampIndex: number;
  temperature: number;
  maxNewTokens: number;
  random: () => number;
  /** Benchmarks only: stop after exactly this many tokens (generated weights never stop). */
  forcedTokenCount?: number;
}

/**
 * One window's decode as it is sampled, token by token, with Whisper's rules: what the model
 * believed of each token, the cross-attention that predicted it, and how sure the decode is.
 * The same for a window decoded alone and for one row of a batch, so that both choose the
 * same tokens from the same logits.
 */
export class SampledSequence {
  readonly sampled: number[] = [];
  readonly probabilities: number[] = [];
  readonly attention: Float32Array[][] = [];
  finished = false;
  /** The cross-attention rows that predicted what followed the last token, once ended. */
  private finalAttention: Float32Array[] | null = null;
  private sumLogProbability = 0;
  private exps: Float32Array;

  constructor(
    private readonly model: LoadedWhisper,
    private readonly options: SequenceOptions,
  ) {
    this.exps = new Float32Array(model.vocab.size);
  }

  /** Whether the sequence has ended (end-of-text chosen, or its token budget spent). */
  get ended(): boolean {
    return this.finalAttention !== null;
  }

  /**
   * Takes one step's logits (reshaped in place by the rules) and alignment rows: the token
   * chosen, to feed the decoder next, or null where the sequence ends here.
   */
  next(logits: Float32Array, alignmentRows: Float32Array[]): number | null {
    const { model, options, sampled } = this;
    const { vocab } = model;
    if (sampled.length >= options.maxNewTokens) {
      this.finalAttention = alignmentRows;
      return null;
    }
    // The model's own belief in a token (for word confidence) is read before the rules
    // reshape the row; the decode's log-probability after them (as Whisper's fallback reads it).
    if (this.exps.length !== logits.length) this.exps = new Float32Array(logits.length);
    const { exps } = this;
    const { max, logSum: rawNormaliser } = shiftedExps(logits, exps);
    applyDecodingRules(logits, vocab, {
      sampled,
      lastTimestampIndex: options.lastTimestampIndex,
      maxInitialTimestampIndex: model.maxInitialTimestampIndex,
    });
    const { temperature } = options;
    let token =
      temperature === 0 ? argmax(logits) : sampleToken(logits, temperature, options.random);
    if (options.forcedTokenCount !== undefined) {
      token =
        sampled.length >= options.forcedTokenCount
          ? vocab.endOfText
          : argmaxExcept(logits, vocab.endOfText);
    }
    // The rules only set entries to -Infinity: the rest keep their raw exponentials.
    this.sumLogProbability += logits[token]! - keptLogSumExp(logits, exps, max);
    if (token === vocab.endOfText) {
      this.finished = true;
      this.finalAttention = alignmentRows;
      return null;
    }
    sampled.push(token);
    // The rules only mask: a token they left (the one chosen) keeps its raw logit.
    this.probabilities.push(Math.exp(logits[token]! - rawNormaliser));
    this.attention.push(alignmentRows);
    return token;
  }

  /** The decode, once ended; `noSpeechProbability` read from its first step. */
  result(noSpeechProbability: number, conditioned: boolean): WindowDecode {
    const { model, sampled } = this;
    if (!this.finalAttention) throw new Error('The sequence has not ended.');
    const text = model.decodeText(sampled.filter((t) => t < model.vocab.endOfText));
    return {
      sampled,
      probabilities: this.probabilities,
      attention: this.attention,
      finalAttention: this.finalAttention,
      finished: this.finished,
      noSpeechProbability,
      averageLogProbability: this.sumLogProbability / (sampled.length + 1),
      compressionRatio: compressionRatio(text),
      temperature: this.options.temperature,
      conditioned,
    };
  }
}

function argmaxExcept(logits: Float32Array, excluded: number): number {
  const saved = logits[excluded]!;
  logits[excluded] = -Infinity;
  const best = argmax(logits);
  logits[excluded] = saved;
  return best;
}
