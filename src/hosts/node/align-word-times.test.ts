import { beforeAll, describe, expect, it } from 'vitest';
import { alignScript } from '../../../tools/testing/cli-run';
import { scratchDir, sentence } from '../../../tools/testing/speech';
import { timedSpeech } from '../../../tools/testing/timed-speech';

/**
 * `murmur align MEDIA TEXT`: the words of a text the user has, timed to the media, through the
 * CLI's whole pipeline with the test model, on generated speech whose word times are known.
 */
let dir = '';

const align = (media: string, text: string, ...fields: string[]) =>
  alignScript(dir, media, text, ...fields);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

beforeAll(() => {
  dir = scratchDir();
});

describe('murmur align', () => {
  it('times every word of the text, kept as written and in order, within 0.1 s at the median', async () => {
    const errors: number[] = [];
    for (const [language, seed] of [
      ['en', 51],
      ['es', 52],
    ] as const) {
      const lines = [sentence(language, seed, 8), sentence(language, seed + 1, 9)];
      const text = `${lines[0]}, ${lines[1]}.`;
      const speech = timedSpeech(dir, `timed-${seed}`, language, text, seed);
      const response = await align(speech.path, `${lines[0]}, ${lines[1]}.`);
      const segments = response.prediction_raw.transcription;
      const words = segments.flatMap((s) => s.words);
      expect(words.map((w) => w.word.trim())).toEqual(text.split(' '));
      expect(segments.map((s) => s.transcription.trim())).toEqual([text]);
      for (let i = 1; i < words.length; i++) {
        expect(words[i]!.time_begin).toBeGreaterThanOrEqual(words[i - 1]!.time_begin);
      }
      words.forEach((w, i) => errors.push(Math.abs(w.time_begin - speech.words[i]!.start)));
    }
    expect(median(errors)).toBeLessThanOrEqual(0.1);
  });

  // Four runs of the CLI and two generated recordings: more than the default minute on a busy
  // machine.
  it('gives the first word of each sentence a real confidence, and ends each word where its sound ends', async () => {
    const ends: number[] = [];
    const lineEnds: number[] = [];
    for (const [language, seed] of [
      ['en', 91],
      ['es', 92],
    ] as const) {
      const capital = (t: string) => `${t[0]!.toUpperCase()}${t.slice(1)}`;
      const lines = [sentence(language, seed, 8), sentence(language, seed + 1, 9)];
      const text = `${capital(lines[0]!)}. ${capital(lines[1]!)}.`;
      const speech = timedSpeech(dir, `ends-${seed}`, language, text, seed);
      const cased = (await align(speech.path, text)).prediction_raw.transcription;
      const lower = (await align(speech.path, text.toLowerCase())).prediction_raw.transcription;
      expect(cased.map((s) => s.words[0]!.word.trim())).toEqual(
        lines.map((l) => capital(l.split(' ')[0]!)),
      );
      // Case is not heard: a capital does not make a word less likely than in lower case.
      cased.forEach((segment, k) => {
        expect(segment.words[0]!.confidence).toBeGreaterThan(0.1);
        expect(segment.words[0]!.confidence).toBeCloseTo(lower[k]!.words[0]!.confidence, 1);
      });
      const words = cased.flatMap((s) => s.words);
      words.forEach((w, i) => ends.push(Math.abs(w.time_end - speech.words[i]!.end)));
      let at = 0;
      for (const segment of cased) {
        at += segment.words.length;
        // The pause after a sentence is not the sentence's.
        lineEnds.push(segment.time_end - speech.words[at - 1]!.end);
      }
    }
    expect(median(ends)).toBeLessThanOrEqual(0.05);
    for (const late of lineEnds) expect(late).toBeLessThanOrEqual(0.1);
  }, 180_000);
});
