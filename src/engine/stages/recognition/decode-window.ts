import { logSoftmax } from '../../../core/decoding/probabilities';
import { SECONDS_PER_TIMESTAMP } from '../../../core/decoding/vocabulary';
import type { LoadedWhisper } from '../../ports';
import type { Tensor } from '../../models/transformers-port';
import type { FallbackThresholds } from '../../stage-settings';
import { SampledSequence } from './sampled-sequence';

export interface WindowDecodeOptions {
  language: string;
  task: 'transcribe' | 'translate';
  /** Text tokens shown to the decoder as earlier text (`<|startofprev|>`): the user's hint... */
  hintTokens: readonly number[];
  /** ...then the text decoded before this window (conditioning), which a failing decode drops. */
  contextTokens: readonly number[];
  temperatures: readonly number[];
  /** When a decode has failed (the recognition settings' `fallback`). */
  fallback: FallbackThresholds;
  /**
   * A decode shown earlier text that passes with a mean log-probability below this is compared
   * with one without it (the recognition settings' `contextDoubt`; 0 compares every such
   * decode).
   */
  contextDoubt: number;
  maxNewTokens: number;
  random: () => number;
  /** Benchmarks only: stop after exactly this many tokens (generated weights never stop). */
  forcedTokenCount?: number;
  signal?: AbortSignal;
  /**
   * The tokens sampled so far, each time a timestamp closes a segment: a first look at the
   * window before its fallback checks (each attempt starts afresh). Nothing decided hangs on it.
   */
  onClosedSegment?: (sampled: readonly number[]) => void;
  /**
   * The first attempt, already decoded (greedily and without earlier text, as one row of a
   * batch: decode-batch.ts): judged by the same rules, and only a fallback decoded here.
   */
  firstAttempt?: WindowDecode;
}

export interface WindowDecode {
  /** Sampled tokens after the prompt, without end-of-text. */
  sampled: number[];
  /** The model's probability of each sampled token (before any rule reshaped the logits). */
  probabilities: number[];
  /** Alignment-head cross-attention that predicted each sampled token: [token][head][frame]. */
  attention: Float32Array[][];
  /** The rows that predicted what followed the last token (end-of-text or the cut-off). */
  finalAttention: Float32Array[];
  finished: boolean;
  noSpeechProbability: number;
  averageLogProbability: number;
  compressionRatio: number;
  temperature: number;
  /** Whether this decode was shown the earlier text (a retry without it was not). */
  conditioned: boolean;
}

/**
 * Decodes one window of audio with Whisper's rules and temperature fallback: greedy first;
 * if the text repeats itself (compression ratio) or the model is unsure (mean log-probability),
 * again at each higher temperature. A decode shown earlier text that fails is first retried at
 * its temperature without that text (the hint stays); one that passes unsurely is compared with a
 * decode without it (`contextDoubt`). A window the model judges to be no speech is not retried.
 * When no temperature passes, the likeliest decode is kept, not the last.
 */
export async function decodeWindow(
  model: LoadedWhisper,
  encoded: Tensor,
  audioSeconds: number,
  options: WindowDecodeOptions,
): Promise<WindowDecode> {
  const { vocab } = model;
  const { fallback } = options;
  const language = vocab.languages.get(options.language);
  if (language === undefined)
    throw new Error(`The model has no language token for "${options.language}".`);
  const task = options.task === 'translate' ? vocab.translate : vocab.transcribe;
  const lastTimestampIndex = Math.max(0, Math.floor(audioSeconds / SECONDS_PER_TIMESTAMP + 1e-6));

  const tried: WindowDecode[] = [];
  let result: WindowDecode | null = null;
  let context = options.contextTokens;
  // A decode with earlier text that passed, but unsurely: compared with one without that text.
  let doubted: WindowDecode | null = null;
  let given = options.firstAttempt;
  for (let attempt = 0; attempt < options.temperatures.length;) {
    const temperature = options.temperatures[attempt]!;
    options.signal?.throwIfAborted();
    const prompt = [...options.hintTokens, ...context];
    if (given && (prompt.length > options.hintTokens.length || given.temperature !== temperature))
      throw new Error('A window decoded in a batch is given without earlier text, greedily.');
    result =
      given ??
      (await decodeOnce(
        model,
        encoded,
        prompt,
        language,
        task,
        temperature,
        options,
        lastTimestampIndex,
      ));
    given = undefined;
    const { noSpeechProbability } = result;
    const silent =
      noSpeechProbability > fallback.noSpeech &&
      result.averageLogProbability < fallback.logProbability;
    const poor =
      result.compressionRatio > fallback.compressionRatio ||
      result.averageLogProbability < fallback.logProbability;
    if (doubted !== null) {
      // The decode without the earlier text replaces the doubted one only where the model is
      // surer of it.
      const better =
        !silent && !poor && result.averageLogProbability > doubted.averageLogProbability;
      return better ? result : doubted;
    }
    if (options.forcedTokenCount !== undefined) return result;
    if (!poor && context.length > 0 && result.averageLogProbability < options.contextDoubt) {
      doubted = result;
      context = [];
      continue;
    }
    if (silent || !poor) return result;
    tried.push(result);
    // Earlier text is the usual cause of a decode that loops or rambles (Whisper's known
    // failure with conditioning): before any higher temperature, the same one once more without
    // it, and no earlier text for the attempts after.
    if (context.length > 0) context = [];
    else attempt++;
  }
  if (!result) throw new Error('No temperatures to decode with.');
  // Every temperature failed: rather than the last (most random) decode, the likeliest one
  // that does not repeat itself, or the likeliest of all if each one does.
  const unrepeated = tried.filter((d) => d.compressionRatio <= fallback.compressionRatio);
  return (unrepeated.length > 0 ? unrepeated : tried).reduce((a, b) =>
    b.averageLogProbability > a.averageLogProbability ? b : a,
  );
}

/** One attempt at a window: a sequence sampled at `temperature` after the prompt. */
async function decodeOnce(
  model: LoadedWhisper,
  encoded: Tensor,
  prompt: readonly number[],
  language: number,
  task: number,
  temperature: number,
  options: WindowDecodeOptions,
  lastTimestampIndex: number,
): Promise<WindowDecode> {
  const { vocab } = model;
  const prefix = prompt.length > 0 ? [vocab.startOfPrevious, ...prompt] : [];
  const sotIndex = prefix.length;
  prefix.push(vocab.startOfTranscript, language, task);
  let step = await model.step(encoded, prefix, null);
  const noSpeechProbability = Math.exp(logSoftmax(step.logitsAt(sotIndex))[vocab.noSpeech]!);
  const sequence = new SampledSequence(model, {
    lastTimestampIndex,
    temperature,
    maxNewTokens: options.maxNewTokens,
    random: options.random,
    ...(options.forcedTokenCount !== undefined
      ? { forcedTokenCount: options.forcedTokenCount }
      : {}),
  });
  const { sampled } = sequence;
  try {
    for (;;) {
      const token = sequence.next(step.lastLogits, step.alignmentRows);
      if (token === null) break;
      const previous = sampled.at(-2);
      if (
        options.onClosedSegment &&
        token >= vocab.timestampBegin &&
        previous !== undefined &&
        previous < vocab.endOfText
      )
        options.onClosedSegment(sampled);
      options.signal?.throwIfAborted();
      step = await model.step(encoded, [token], step.past);
    }
  } finally {
    model.releasePast(step.past);
  }
  return sequence.result(noSpeechProbability, prompt.length > options.hintTokens.length);
}

/** Whether a decode is silence by Whisper's rule (no-speech likely and the text unsure). */
export function isNoSpeech(decode: WindowDecode, fallback: FallbackThresholds): boolean {
  return (
    decode.noSpeechProbability > fallback.noSpeech &&
    decode.averageLogProbability < fallback.logProbability
  );
}

/**
 * Whether a decode passed Whisper's fallback test (neither repeating itself nor unsure of its
 * text) and is not silence: the decode the rules would have stopped at.
 */
export function isSure(decode: WindowDecode, fallback: FallbackThresholds): boolean {
  return (
    !isNoSpeech(decode, fallback) &&
    decode.compressionRatio <= fallback.compressionRatio &&
    decode.averageLogProbability >= fallback.logProbability
  );
}
