import { logSoftmax } from '../../../core/decoding/probabilities';
import { SECONDS_PER_TIMESTAMP } from '../../../core/decoding/vocabulary';
import type { Tensor } from '../../models/transformers-port';
import type { LoadedWhisper, PastKeyValues } from '../../ports';
import { BatchMembers } from './batch-members';
import type { WindowDecode } from './decode-window';
import { SampledSequence } from './sampled-sequence';

/** One window of a batch: its encoder output and what its decode is held to. */
export interface BatchWindow {
  encoded: Tensor;
  seconds: number;
  language: string;
  maxNewTokens: number;
}

export interface BatchDecodeOptions {
  task: 'transcribe' | 'translate';
  /** The user's hint, shown to every window alike (`<|startofprev|>`); no earlier text. */
  hintTokens: readonly number[];
  /** Benchmarks only: stop each window after exactly this many tokens. */
  forcedTokenCount?: number;
  signal?: AbortSignal;
}

/**
 * The greedy first attempt at several windows, decoded together: their sequences go through
 * the decoder as the rows of one batch, a step for all of them at once, and each window's
 * row leaves the batch (its keys and values with it) once its sequence ends. Each row's
 * tokens are chosen by the same rules from its own logits as `decodeWindow`'s first attempt
 * without earlier text (`SampledSequence`); the fallbacks are the caller's, window by window.
 *
 * The decoder takes no attention mask: the rows' positions are one, so all prompts are of one
 * length (the hint, start of transcript, language, task) and windows join only at the start.
 */
export async function decodeBatch(
  model: LoadedWhisper,
  windows: readonly BatchWindow[],
  options: BatchDecodeOptions,
): Promise<WindowDecode[]> {
  const { vocab } = model;
  if (windows.length === 0) return [];
  const task = options.task === 'translate' ? vocab.translate : vocab.transcribe;
  const hint = options.hintTokens.length > 0 ? [vocab.startOfPrevious, ...options.hintTokens] : [];
  const prompts = windows.map((window) => {
    const language = vocab.languages.get(window.language);
    if (language === undefined)
      throw new Error(`The model has no language token for "${window.language}".`);
    return [...hint, vocab.startOfTranscript, language, task];
  });
  const sequences = windows.map(
    (window) =>
      new SampledSequence(model, {
        lastTimestampIndex: Math.max(0, Math.floor(window.seconds / SECONDS_PER_TIMESTAMP + 1e-6)),
        temperature: 0,
        maxNewTokens: window.maxNewTokens,
        // Greedy: nothing is drawn.
        random: Math.random,
        ...(options.forcedTokenCount !== undefined
          ? { forcedTokenCount: options.forcedTokenCount }
          : {}),
      }),
  );
  options.signal?.throwIfAborted();
  let step = await model.stepBatch(
    windows.map((w) => w.encoded),
    prompts,
    null,
  );
  let past: PastKeyValues = step.past;
  const noSpeech = step.rows.map((row) =>
    Math.exp(logSoftmax(row.logitsAt(hint.length))[vocab.noSpeech]!),
  );
  const members = new BatchMembers(windows.length);
  try {
    for (;;) {
      const tokens: number[][] = [];
      const ended = new Set<number>();
      members.windows.forEach((window, row) => {
        const { lastLogits, alignmentRows } = step.rows[row]!;
        const token = sequences[window]!.next(lastLogits, alignmentRows);
        if (token === null) ended.add(window);
        else tokens.push([token]);
      });
      if (ended.size > 0) {
        const kept = members.leave(ended);
        if (kept.length === 0) break;
        past = await model.keepRows(past, kept);
      }
      options.signal?.throwIfAborted();
      step = await model.stepBatch(
        members.windows.map((w) => windows[w]!.encoded),
        tokens,
        past,
      );
      past = step.past;
    }
  } finally {
    model.releasePast(past);
  }
  return sequences.map((sequence, i) => sequence.result(noSpeech[i]!, false));
}
