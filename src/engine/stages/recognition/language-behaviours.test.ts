import { describe, expect, it } from 'vitest';
import type { RecognisedSegment } from '../../../core/assemble/response';
import type { Tensor } from '../../models/transformers-port';
import {
  manualLanguage,
  multipleLanguages,
  singleLanguage,
  type ChannelDecoding,
  type StreamDecoding,
} from './language-behaviours';
import type { EncodedWindow } from './language-detection';

const window = (label: number): EncodedWindow => ({
  audio: new Float32Array([label]),
  encoded: { label } as unknown as Tensor,
});
const segment = (text: string, language: string): RecognisedSegment => ({
  text,
  language,
  start: 0,
  end: 1,
  channel: 0,
  words: [],
});

/**
 * A channel of `streams` (each a language the detector hears on its first window) decoded by
 * a stand-in loop: one segment per stream in the language the plan gives. `completeAfter`
 * windows are decoded before all of the speech is known (Infinity: known from the start).
 */
function fakeChannel(options: { streams: string[]; prominent: string; completeAfter?: number }) {
  const log: string[] = [];
  /** What the plan held back after each window (shown as provisional text meanwhile). */
  const heldAfter: string[][] = [];
  let decodedWindows = 0;
  const known = () => (options.completeAfter ?? 0) <= decodedWindows;
  const decoding: ChannelDecoding = {
    complete: known,
    settledStart: async () =>
      options.streams.map((_, k) => ({ length: 1, read: () => new Float32Array([k]) })),
    encodeStart: async () => {
      log.push('encode start');
      return window(0);
    },
    detect: async (w) => {
      const k = (w.encoded as unknown as { label: number }).label;
      log.push(`detect ${k}`);
      return new Map([[options.streams[k]!, 0.9]]);
    },
    prominent: async (_streams, knownWindow) => {
      log.push(knownWindow ? 'prominent (first window known)' : 'prominent');
      return { language: options.prominent, first: window(0) };
    },
    decode: async (plan: StreamDecoding) => {
      const segments: RecognisedSegment[] = [];
      let completeSeen = known();
      for (const [k] of options.streams.entries()) {
        if (!completeSeen && known()) {
          completeSeen = true;
          if (plan.onComplete && !(await plan.onComplete())) return null;
        }
        const language = await plan.languageOf(async () => {
          log.push(`encode ${k}`);
          return window(k);
        });
        const s = segment(`stream ${k}`, language);
        segments.push(s);
        plan.post(s);
        heldAfter.push((plan.held?.() ?? []).map((h) => h.text));
        decodedWindows++;
      }
      if (!completeSeen && plan.onComplete && !(await plan.onComplete())) return null;
      return segments;
    },
  };
  return { decoding, log, heldAfter };
}

const languages = (segments: RecognisedSegment[]) => segments.map((s) => s.language);

describe('language behaviours', () => {
  it('manual decodes every stream in the named language, detecting nothing', async () => {
    const { decoding, log, heldAfter } = fakeChannel({ streams: ['fr', 'de'], prominent: 'fr' });
    const posted: RecognisedSegment[] = [];
    const segments = await manualLanguage.recognise(decoding, 'es', (s) => posted.push(s));
    expect(languages(segments)).toEqual(['es', 'es']);
    expect(posted).toEqual(segments);
    expect(log).toEqual([]);
    // Nothing is held back: each segment is posted as it is decoded.
    expect(heldAfter).toEqual([[], []]);
    expect(manualLanguage.perTurn).toBe(false);
  });

  it('multiple languages detects each turn on its own first window', async () => {
    const { decoding, log } = fakeChannel({ streams: ['en', 'fr', 'en'], prominent: 'en' });
    const segments = await multipleLanguages.recognise(decoding, null, () => {});
    expect(languages(segments)).toEqual(['en', 'fr', 'en']);
    expect(log).toEqual(['encode 0', 'detect 0', 'encode 1', 'detect 1', 'encode 2', 'detect 2']);
    expect(multipleLanguages.perTurn).toBe(true);
  });

  it('single language decodes all in the prominent language when the speech is known', async () => {
    const { decoding, log } = fakeChannel({ streams: ['en', 'fr', 'fr'], prominent: 'fr' });
    const posted: RecognisedSegment[] = [];
    const segments = await singleLanguage.recognise(decoding, null, (s) => posted.push(s));
    expect(languages(segments)).toEqual(['fr', 'fr', 'fr']);
    expect(posted).toEqual(segments);
    expect(log).toEqual(['prominent']);
  });

  it('single language holds what it decodes in a guessed language until it is confirmed', async () => {
    const { decoding, log, heldAfter } = fakeChannel({
      streams: ['de', 'de', 'de'],
      prominent: 'de',
      completeAfter: 2,
    });
    const posted: string[] = [];
    const segments = await singleLanguage.recognise(decoding, null, (s) => {
      // Nothing is posted before the guess is confirmed, then the held ones first.
      posted.push(`${s.text} after ${log.filter((l) => l.startsWith('prominent')).length}`);
    });
    expect(languages(segments)).toEqual(['de', 'de', 'de']);
    expect(posted).toEqual(['stream 0 after 1', 'stream 1 after 1', 'stream 2 after 1']);
    expect(log).toEqual(['encode start', 'detect 0', 'prominent (first window known)']);
    // The held segments are told while held (to be shown as provisional), none once posted.
    expect(heldAfter).toEqual([['stream 0'], ['stream 0', 'stream 1'], []]);
  });

  it('single language starts over in the prominent language when the guess was wrong', async () => {
    const { decoding } = fakeChannel({
      streams: ['en', 'es', 'es'],
      prominent: 'es',
      completeAfter: 2,
    });
    const posted: RecognisedSegment[] = [];
    const segments = await singleLanguage.recognise(decoding, null, (s) => posted.push(s));
    expect(languages(segments)).toEqual(['es', 'es', 'es']);
    // The two segments decoded in the guessed english were never posted.
    expect(languages(posted)).toEqual(['es', 'es', 'es']);
  });

  it('single language gives nothing for a channel without speech', async () => {
    const { decoding, log } = fakeChannel({ streams: [], prominent: 'en' });
    expect(await singleLanguage.recognise(decoding, null, () => {})).toEqual([]);
    expect(log).toEqual([]);
  });
});
