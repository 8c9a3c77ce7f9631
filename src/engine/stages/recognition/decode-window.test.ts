import { describe, expect, it } from 'vitest';
import type { WhisperVocabulary } from '../../../core/decoding/vocabulary';
import { DEFAULT_RECOGNITION_SETTINGS } from '../../stage-settings';
import { decodeWindow, isNoSpeech } from './decode-window';
import type { Tensor } from '../../models/transformers-port';
import type { DecoderStep, LoadedWhisper } from '../../ports';

const vocab: WhisperVocabulary = {
  startOfTranscript: 11,
  endOfText: 10,
  startOfPrevious: 16,
  noSpeech: 17,
  noTimestamps: 18,
  timestampBegin: 19,
  size: 19 + 501,
  transcribe: 15,
  translate: 14,
  languages: new Map([
    ['en', 12],
    ['fr', 13],
  ]),
  suppress: [],
  beginSuppress: [10],
};

/**
 * A scripted decoder: at each step it strongly prefers the next token of `script` (per
 * temperature attempt), so the decoding loop's rules and fallbacks can be checked exactly.
 */
function scriptedModel(
  scripts: number[][],
  options: { noSpeech?: number; confidence?: number; rivalGaps?: number[] } = {},
) {
  const calls: { tokens: number[]; hadPast: boolean }[] = [];
  let attempt = -1;
  let position = 0;
  const row = (preferred: number) => {
    const logits = new Float32Array(vocab.size).fill(-10);
    logits[preferred] = options.confidence ?? 10;
    // Unsure: every other text token just below the preferred one.
    const gap = options.rivalGaps?.[attempt];
    if (gap !== undefined) {
      for (let t = 0; t < vocab.endOfText; t++)
        if (t !== preferred) logits[t] = logits[preferred]! - gap;
    }
    return logits;
  };
  const model = {
    vocab,
    maxTargetPositions: 448,
    medianFilterWidth: 7,
    maxInitialTimestampIndex: 50,
    decodeText: (tokens: readonly number[]) => tokens.map((t) => `w${t}`).join(' '),
    releasePast: () => undefined,
    async step(_encoded: Tensor, tokens: readonly number[], past: unknown): Promise<DecoderStep> {
      calls.push({ tokens: [...tokens], hadPast: past !== null });
      if (past === null) {
        attempt++;
        position = 0;
      }
      const script = scripts[Math.min(attempt, scripts.length - 1)]!;
      const next = script[position++] ?? vocab.endOfText;
      const noSpeechRow = new Float32Array(vocab.size).fill(-10);
      noSpeechRow[vocab.noSpeech] = options.noSpeech ?? -10;
      return {
        lastLogits: row(next),
        logitsAt: (p: number) => (tokens[p] === vocab.startOfTranscript ? noSpeechRow : row(next)),
        alignmentRows: [new Float32Array(10)],
        past: {},
      };
    },
  } as unknown as LoadedWhisper;
  return { model, calls };
}

const ts = (s: number) => vocab.timestampBegin + Math.round(s / 0.02);
const base = {
  language: 'en',
  task: 'transcribe' as const,
  hintTokens: [],
  contextTokens: [],
  temperatures: [0, 0.5, 1],
  fallback: DEFAULT_RECOGNITION_SETTINGS.fallback,
  contextDoubt: DEFAULT_RECOGNITION_SETTINGS.contextDoubt,
  maxNewTokens: 50,
  random: () => 0.5,
};

describe('decodeWindow', () => {
  it('feeds the prompt, start of transcript, language and task, then one token a step', async () => {
    const { model, calls } = scriptedModel([[ts(0), 1, 2, ts(1)]]);
    const result = await decodeWindow(model, {} as Tensor, 5, {
      ...base,
      hintTokens: [7],
      contextTokens: [8],
    });
    expect(calls[0]).toEqual({ tokens: [16, 7, 8, 11, 12, 15], hadPast: false });
    expect(calls.slice(1).every((c) => c.tokens.length === 1 && c.hadPast)).toBe(true);
    expect(result.sampled).toEqual([ts(0), 1, 2, ts(1)]);
    expect(result.finished).toBe(true);
    expect(result.temperature).toBe(0);
    expect(result.probabilities.every((p) => p > 0.99)).toBe(true);
  });

  it('uses the translate task token when translating', async () => {
    const { model, calls } = scriptedModel([[ts(0), 1, ts(1)]]);
    await decodeWindow(model, {} as Tensor, 5, { ...base, language: 'fr', task: 'translate' });
    expect(calls[0]!.tokens).toEqual([11, 13, 14]);
  });

  it('falls back to a higher temperature when the text loops', async () => {
    const loop = [ts(0), ...Array.from({ length: 40 }, () => 5), ts(4)];
    const { model } = scriptedModel([loop, loop, [ts(0), 1, 2, 3, ts(1)]]);
    const result = await decodeWindow(model, {} as Tensor, 5, base);
    expect(result.temperature).toBe(1);
    expect(result.sampled).toEqual([ts(0), 1, 2, 3, ts(1)]);
  });

  it('retries a failing decode at its temperature without the earlier text, keeping the hint', async () => {
    const loop = [ts(0), ...Array.from({ length: 40 }, () => 5), ts(4)];
    const { model, calls } = scriptedModel([loop, [ts(0), 1, 2, 3, ts(1)]]);
    const result = await decodeWindow(model, {} as Tensor, 5, {
      ...base,
      hintTokens: [7],
      contextTokens: [8, 9],
    });
    const starts = calls.filter((c) => !c.hadPast).map((c) => c.tokens);
    expect(starts).toEqual([
      [16, 7, 8, 9, 11, 12, 15],
      [16, 7, 11, 12, 15],
    ]);
    expect(result.temperature).toBe(0);
    expect(result.sampled).toEqual([ts(0), 1, 2, 3, ts(1)]);
  });

  it('keeps the earlier text away from the higher temperatures once it failed', async () => {
    const loop = [ts(0), ...Array.from({ length: 40 }, () => 5), ts(4)];
    const { model, calls } = scriptedModel([loop, loop, [ts(0), 1, ts(1)]]);
    const result = await decodeWindow(model, {} as Tensor, 5, { ...base, contextTokens: [8] });
    const starts = calls.filter((c) => !c.hadPast).map((c) => c.tokens);
    expect(starts).toEqual([
      [16, 8, 11, 12, 15],
      [11, 12, 15],
      [11, 12, 15],
    ]);
    expect(result.temperature).toBe(0.5);
  });

  it('decodes an unsure decode with earlier text again without it, and keeps the surer', async () => {
    const heard = [ts(0), 1, 2, 3, ts(1)];
    const misled = [ts(0), 1, 4, ts(1)];
    // Unsure with the earlier text (about -0.58), sure without it
    const { model, calls } = scriptedModel([misled, heard], { rivalGaps: [1, Infinity] });
    const result = await decodeWindow(model, {} as Tensor, 5, {
      ...base,
      hintTokens: [7],
      contextTokens: [8],
    });
    const starts = calls.filter((c) => !c.hadPast).map((c) => c.tokens);
    expect(starts).toEqual([
      [16, 7, 8, 11, 12, 15],
      [16, 7, 11, 12, 15],
    ]);
    expect(result.sampled).toEqual(heard);
    expect(result.temperature).toBe(0);
  });

  it('keeps the decode with earlier text where the one without is less sure', async () => {
    const first = [ts(0), 1, 2, 3, ts(1)];
    const second = [ts(0), 1, 4, ts(1)];
    // About -0.55 with the earlier text, -0.58 without
    const { model, calls } = scriptedModel([first, second], { rivalGaps: [1.5, 1] });
    const result = await decodeWindow(model, {} as Tensor, 5, { ...base, contextTokens: [8] });
    expect(calls.filter((c) => !c.hadPast)).toHaveLength(2);
    expect(result.sampled).toEqual(first);
    expect(result.averageLogProbability).toBeLessThan(DEFAULT_RECOGNITION_SETTINGS.contextDoubt);
    expect(result.averageLogProbability).toBeGreaterThan(-1);
  });

  it('compares even a sure decode with earlier text when asked to doubt every one', async () => {
    const heard = [ts(0), 1, 2, 3, ts(1)];
    // Sure either way, a little surer without the earlier text: the decode without it is kept.
    const { model, calls } = scriptedModel([heard, heard], { rivalGaps: [6, 8] });
    const result = await decodeWindow(model, {} as Tensor, 5, {
      ...base,
      contextTokens: [8],
      contextDoubt: 0,
    });
    expect(calls.filter((c) => !c.hadPast)).toHaveLength(2);
    expect(result.averageLogProbability).toBeGreaterThan(DEFAULT_RECOGNITION_SETTINGS.contextDoubt);
    expect(result.conditioned).toBe(false);
    // Surer with the earlier text: that decode is kept.
    const surer = scriptedModel([heard, heard], { rivalGaps: [8, 6] });
    const kept = await decodeWindow(surer.model, {} as Tensor, 5, {
      ...base,
      contextTokens: [8],
      contextDoubt: 0,
    });
    expect(surer.calls.filter((c) => !c.hadPast)).toHaveLength(2);
    expect(kept.conditioned).toBe(true);
  });

  it('says whether the decode it returns was shown the earlier text', async () => {
    const heard = [ts(0), 1, 2, 3, ts(1)];
    const loop = [ts(0), ...Array.from({ length: 40 }, () => 5), ts(4)];
    const shown = await decodeWindow(scriptedModel([heard]).model, {} as Tensor, 5, {
      ...base,
      contextTokens: [8],
    });
    expect(shown.conditioned).toBe(true);
    // A hint alone is not earlier text.
    const hinted = await decodeWindow(scriptedModel([heard]).model, {} as Tensor, 5, {
      ...base,
      hintTokens: [7],
    });
    expect(hinted.conditioned).toBe(false);
    // The retry without the earlier text after a failure is what comes back.
    const retried = await decodeWindow(scriptedModel([loop, heard]).model, {} as Tensor, 5, {
      ...base,
      contextTokens: [8],
    });
    expect(retried.sampled).toEqual(heard);
    expect(retried.conditioned).toBe(false);
  });

  it('decodes once when the model is sure with the earlier text or has none', async () => {
    const heard = [ts(0), 1, 2, 3, ts(1)];
    const sure = scriptedModel([heard]);
    await decodeWindow(sure.model, {} as Tensor, 5, { ...base, contextTokens: [8] });
    expect(sure.calls.filter((c) => !c.hadPast)).toHaveLength(1);
    // Unsure but without earlier text: nothing to compare with
    const alone = scriptedModel([heard], { rivalGaps: [1.5] });
    const result = await decodeWindow(alone.model, {} as Tensor, 5, base);
    expect(alone.calls.filter((c) => !c.hadPast)).toHaveLength(1);
    expect(result.averageLogProbability).toBeLessThan(DEFAULT_RECOGNITION_SETTINGS.contextDoubt);
  });

  it('keeps the likeliest decode that does not repeat itself when every temperature fails', async () => {
    const loop = [ts(0), ...Array.from({ length: 40 }, () => 5), ts(4)];
    const short = [ts(0), 1, 2, 3, ts(1)];
    const long = [ts(0), 1, 2, 3, 4, 2, 3, ts(2)];
    // A sure loop, then two unsure decodes: the longer one has more unsure tokens.
    const { model, calls } = scriptedModel([loop, short, long], {
      rivalGaps: [Infinity, 0.01, 0.01],
    });
    const result = await decodeWindow(model, {} as Tensor, 5, { ...base, temperatures: [0, 0, 0] });
    expect(calls.filter((c) => !c.hadPast)).toHaveLength(3);
    expect(result.sampled).toEqual(short);
    expect(result.averageLogProbability).toBeLessThan(-1);
  });

  it('does not retry a window the model hears as silence, and reports it', async () => {
    const { model, calls } = scriptedModel([[ts(0), 1, ts(1)]], { noSpeech: 10, confidence: -9 });
    const result = await decodeWindow(model, {} as Tensor, 5, base);
    expect(result.noSpeechProbability).toBeGreaterThan(0.6);
    expect(isNoSpeech(result, DEFAULT_RECOGNITION_SETTINGS.fallback)).toBe(true);
    expect(calls.filter((c) => !c.hadPast)).toHaveLength(1);
  });

  it('decodes exactly the forced number of tokens for benchmarks', async () => {
    const { model } = scriptedModel([[ts(0), 10]]);
    const result = await decodeWindow(model, {} as Tensor, 5, { ...base, forcedTokenCount: 7 });
    expect(result.sampled).toHaveLength(7);
    expect(result.sampled).not.toContain(vocab.endOfText);
  });

  it('stops at the token limit without finishing', async () => {
    const { model } = scriptedModel([[ts(0), ...Array.from({ length: 60 }, (_, i) => 100 + i)]]);
    const result = await decodeWindow(model, {} as Tensor, 5, {
      ...base,
      temperatures: [0],
      maxNewTokens: 20,
    });
    expect(result.sampled).toHaveLength(20);
    expect(result.finished).toBe(false);
  });

  it('refuses a language the model has no token for', async () => {
    const { model } = scriptedModel([[ts(0)]]);
    await expect(decodeWindow(model, {} as Tensor, 5, { ...base, language: 'xx' })).rejects.toThrow(
      /no language token/,
    );
  });
});
