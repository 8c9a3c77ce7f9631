import { describe, expect, it } from 'vitest';
import { medianFilter, tokenStartFrames } from './alignment';
import { compressionRatio } from './compression-ratio';
import { applyDecodingRules } from './logit-rules';
import {
  argmax,
  keptLogSumExp,
  languageProbabilities,
  logSoftmax,
  logSumExp,
  sampleToken,
  seededRandom,
  shiftedExps,
} from './probabilities';
import { splitSegments } from './segments';
import { compactPcm, pcmFloats, type Pcm } from '../audio/pcm';
import {
  fileTime,
  speechStreams,
  streamAudio,
  streamSamples,
  streamSlice,
  unpausedSeconds,
  type SpeechStream,
} from './speech-streams';
import type { WhisperVocabulary } from './vocabulary';
import { vocabularyFrom } from './vocabulary';
import { groupWords } from './words';

// A miniature vocabulary with Whisper's layout: text, eot, specials, timestamps.
const vocab: WhisperVocabulary = {
  startOfTranscript: 11,
  endOfText: 10,
  startOfPrevious: 16,
  noSpeech: 17,
  noTimestamps: 18,
  timestampBegin: 19,
  size: 19 + 101,
  transcribe: 15,
  translate: 14,
  languages: new Map([
    ['en', 12],
    ['fr', 13],
  ]),
  suppress: [3],
  beginSuppress: [0, 10],
};
const ts = (seconds: number) => vocab.timestampBegin + Math.round(seconds / 0.02);
const allowed = (logits: Float32Array) => [...logits.keys()].filter((i) => logits[i] !== -Infinity);

function rules(sampled: number[], fill = 0, lastTimestampIndex = 100) {
  const logits = new Float32Array(vocab.size).fill(fill);
  applyDecodingRules(logits, vocab, { sampled, lastTimestampIndex, maxInitialTimestampIndex: 50 });
  return logits;
}

describe('decoding rules', () => {
  it('starts with a timestamp no later than the initial limit', () => {
    const ok = allowed(rules([]));
    expect(ok.every((i) => i >= vocab.timestampBegin && i <= ts(1))).toBe(true);
    expect(ok).toContain(ts(0));
  });

  it('closes a segment with a timestamp or end of text after an opening one', () => {
    const ok = allowed(rules([ts(0), 1, ts(1)]));
    // After text and a closing timestamp: the next must be a timestamp again (pair) or EOT.
    expect(ok.every((i) => i >= vocab.endOfText)).toBe(true);
    expect(ok.filter((i) => i >= vocab.timestampBegin)[0]).toBe(ts(1));
  });

  it('forbids a third timestamp in a row and timestamps going back', () => {
    const afterPair = allowed(rules([ts(0), 1, ts(1), ts(1.5)]));
    expect(afterPair.some((i) => i >= vocab.timestampBegin)).toBe(false);
    const afterText = allowed(rules([ts(0), 1, ts(1), ts(1.5), 2]));
    expect(Math.min(...afterText.filter((i) => i >= vocab.timestampBegin))).toBe(ts(1.5) + 1);
  });

  it('never emits timestamps past the audio, specials or suppressed tokens', () => {
    const ok = allowed(rules([ts(0), 1], 0, 40));
    expect(Math.max(...ok)).toBe(vocab.timestampBegin + 40);
    expect(ok).not.toContain(3);
    for (const special of [11, 12, 14, 15, 16, 17, 18]) expect(ok).not.toContain(special);
  });

  it('forces a timestamp when timestamps together outweigh every text token', () => {
    const logits = new Float32Array(vocab.size).fill(0);
    logits[1] = 2; // the best text token, but 100 timestamps at 0 sum to more
    applyDecodingRules(logits, vocab, {
      sampled: [ts(0), 2],
      lastTimestampIndex: 100,
      maxInitialTimestampIndex: 50,
    });
    expect(argmax(logits)).toBeGreaterThanOrEqual(vocab.timestampBegin);
    const text = new Float32Array(vocab.size).fill(0);
    text[1] = 20;
    applyDecodingRules(text, vocab, {
      sampled: [ts(0), 2],
      lastTimestampIndex: 100,
      maxInitialTimestampIndex: 50,
    });
    expect(argmax(text)).toBe(1);
  });
});

describe('segments from tokens', () => {
  it('cuts timestamp pairs into segments and consumes the window on a single ending', () => {
    const split = splitSegments([ts(0), 1, 2, ts(1.2), ts(1.5), 4, ts(2.5)], vocab, 5, true);
    expect(split.segments).toEqual([
      { start: 0, end: 1.2, tokenIndices: [1, 2] },
      { start: 1.5, end: 2.5, tokenIndices: [5] },
    ]);
    expect(split.consumed).toBe(5);
  });

  it('seeks to the last timestamp when the decode ends on an opened pair', () => {
    const split = splitSegments([ts(0), 1, ts(1), ts(3)], vocab, 10, true);
    expect(split.consumed).toBeCloseTo(3);
  });

  it('drops a cut-off tail and decodes it again', () => {
    const split = splitSegments([ts(0), 1, ts(1), ts(1.2), 5, 6], vocab, 10, false);
    expect(split.segments).toHaveLength(1);
    expect(split.consumed).toBe(1);
    const whole = splitSegments([ts(0.5), 5, 6], vocab, 10, true);
    expect(whole.segments).toEqual([{ start: 0.5, end: 10, tokenIndices: [1, 2] }]);
  });

  it('finds nothing in a decode of timestamps only', () => {
    expect(splitSegments([ts(0)], vocab, 4, true)).toEqual({ segments: [], consumed: 4 });
  });
});

describe('word timing', () => {
  it('aligns tokens to the frames they attend to', () => {
    // Three tokens attending to frames 0-3, 4-6 and 7-9, then an end row.
    const rows = [
      [0, 4],
      [4, 7],
      [7, 10],
      [9, 10],
    ].map(([a, b]) => Float32Array.from({ length: 10 }, (_, f) => (f >= a! && f < b! ? 1 : 0)));
    expect(tokenStartFrames(rows)).toEqual([0, 4, 7, 9]);
  });

  it('smooths with a median filter', () => {
    expect([...medianFilter(Float32Array.from([0, 0, 9, 0, 0]), 3)]).toEqual([0, 0, 0, 0, 0]);
    expect([...medianFilter(Float32Array.from([1, 2, 3]), 1)]).toEqual([1, 2, 3]);
  });

  it('groups tokens into words with punctuation and geometric-mean confidence', () => {
    const words = groupWords([
      { text: ' "Hel', start: 0, end: 0.2, probability: 0.9 },
      { text: 'lo', start: 0.2, end: 0.4, probability: 0.4 },
      { text: ',', start: 0.4, end: 0.45, probability: 1 },
      { text: ' world', start: 0.5, end: 0.9, probability: 0.8 },
      { text: '.', start: 0.9, end: 1, probability: 0.9 },
    ]);
    expect(words.map((w) => w.text)).toEqual([' "Hello,', ' world.']);
    expect(words[0]!.start).toBe(0);
    expect(words[0]!.end).toBe(0.45);
    expect(words[0]!.confidence).toBeCloseTo(Math.cbrt(0.9 * 0.4 * 1), 5);
  });
});

describe('probabilities', () => {
  it('normalises logits and samples repeatably', () => {
    const logp = logSoftmax(Float32Array.from([1, 2, 3]));
    expect(logp.reduce((s, v) => s + Math.exp(v), 0)).toBeCloseTo(1, 6);
    const a = seededRandom(7);
    const b = seededRandom(7);
    const logits = Float32Array.from([0, 0, 0, 0]);
    const draws = Array.from({ length: 20 }, () => sampleToken(logits, 1, a));
    expect(Array.from({ length: 20 }, () => sampleToken(logits, 1, b))).toEqual(draws);
    expect(new Set(draws).size).toBeGreaterThan(1);
  });

  it("gives the normaliser of a masked row from the unmasked row's exponentials", () => {
    const random = seededRandom(3);
    const row = Float32Array.from({ length: 1000 }, () => (random() - 0.5) * 40);
    const exps = new Float32Array(row.length);
    const { max, logSum } = shiftedExps(row, exps);
    expect(logSum).toBeCloseTo(logSumExp(row), 4);
    const masked = row.slice();
    masked.fill(-Infinity, 100, 700);
    masked[3] = -Infinity;
    expect(keptLogSumExp(masked, exps, max)).toBeCloseTo(logSumExp(masked), 4);
    expect(keptLogSumExp(new Float32Array(5).fill(-Infinity), exps, max)).toBe(-Infinity);
  });

  it('reads language probabilities over the language tokens only', () => {
    const logits = new Float32Array(vocab.size).fill(-5);
    logits[12] = 3;
    logits[13] = 1;
    logits[1] = 50; // a text token the model likes more does not count
    const p = languageProbabilities(logits, vocab.languages);
    expect(p.get('en')! + p.get('fr')!).toBeCloseTo(1, 6);
    expect(p.get('en')).toBeCloseTo(1 / (1 + Math.exp(-2)), 5);
  });

  it('builds the vocabulary from a generation config', () => {
    const v = vocabularyFrom(
      {
        decoder_start_token_id: 50258,
        eos_token_id: 50257,
        no_timestamps_token_id: 50363,
        lang_to_id: { '<|en|>': 50259, '<|fr|>': 50265 },
        task_to_id: { transcribe: 50359, translate: 50358 },
      },
      51865,
      (t) => ({ '<|startofprev|>': 50361, '<|nospeech|>': 50362 })[t],
    );
    expect(v.timestampBegin).toBe(50364);
    expect(v.languages.get('fr')).toBe(50265);
    expect(() =>
      vocabularyFrom({ ...v, decoder_start_token_id: 1 } as never, 1, () => undefined),
    ).toThrow();
  });
});

describe('compression ratio', () => {
  it('is low for varied text and high for repetition loops', () => {
    const varied = 'And so my fellow Americans, ask not what your country can do for you.';
    const loop = 'Thank you. '.repeat(30);
    expect(compressionRatio(varied)).toBeLessThan(1.5);
    expect(compressionRatio(loop)).toBeGreaterThan(2.4);
    expect(compressionRatio('')).toBe(0);
  });
});

describe('speech streams', () => {
  const regions = [
    { start: 1, end: 3 },
    { start: 3.3, end: 4 },
    { start: 10, end: 12 },
  ];

  it('joins speech, keeps short pauses and shortens long ones', () => {
    const [stream, ...rest] = speechStreams(regions, 20, {
      padding: 0,
      keptPause: 0.5,
      splitPause: Infinity,
    });
    expect(rest).toHaveLength(0);
    expect(stream!.pieces).toEqual([
      { fileStart: 1, fileEnd: 4, streamStart: 0 },
      { fileStart: 9.5, fileEnd: 12, streamStart: 3 },
    ]);
    expect(stream!.length).toBeCloseTo(5.5);
    expect(fileTime(stream!, 0)).toBe(1);
    expect(fileTime(stream!, 3.5)).toBeCloseTo(10);
    expect(fileTime(stream!, 99)).toBe(12);
  });

  it('starts a new stream at long pauses and pads regions inside the file', () => {
    const streams = speechStreams(regions, 11, { padding: 0.2, keptPause: 0.5, splitPause: 1 });
    expect(streams).toHaveLength(2);
    expect(streams[0]!.pieces[0]!.fileStart).toBeCloseTo(0.8);
    expect(streams[1]!.pieces[0]!.fileEnd).toBe(11);
  });

  it('counts the seconds of a stretch that are not shortened pauses, whatever follows', () => {
    const options = { padding: 0, keptPause: 0.5, splitPause: Infinity };
    // pieces: file 1-4 at 0 (the 0.3-s pause kept), file 9.5-12 at 3 (its first 0.5 s a pause)
    const [known] = speechStreams(regions, 20, options);
    expect(unpausedSeconds(known!, 0, 5.5, 0.5)).toBeCloseTo(5);
    expect(unpausedSeconds(known!, 2, 3.2, 0.5)).toBeCloseTo(1);
    expect(unpausedSeconds(known!, 3.5, 5, 0.5)).toBeCloseTo(1.5);
    // Speech found later (even just after the last region) leaves the figure for 0-5.5 as it was.
    for (const later of [
      { start: 12.1, end: 13 },
      { start: 15, end: 16 },
    ]) {
      const [grown] = speechStreams([...regions, later], 20, options);
      expect(grown!.length).toBeGreaterThan(known!.length);
      expect(unpausedSeconds(grown!, 0, 5.5, 0.5)).toBeCloseTo(5);
    }
  });

  it('copies the stream audio out of the file', () => {
    const samples = Float32Array.from({ length: 100 }, (_, i) => i);
    const [stream] = speechStreams(
      [
        { start: 1, end: 2 },
        { start: 5, end: 6 },
      ],
      10,
      { padding: 0, keptPause: 0, splitPause: Infinity },
    );
    expect([...streamSamples(stream!, samples, 10)]).toEqual([
      10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59,
    ]);
  });

  /** The whole stream copied piece by piece, each piece over the one before. */
  function wholeStream(stream: SpeechStream, samples: Pcm, rate: number): Float32Array {
    const out = new Float32Array(Math.round(stream.length * rate));
    for (const p of stream.pieces) {
      const from = Math.round(p.fileStart * rate);
      const to = Math.min(samples.length, Math.round(p.fileEnd * rate));
      const at = Math.round(p.streamStart * rate);
      out.set(pcmFloats(samples, from, Math.min(to, from + (out.length - at))), at);
    }
    return out;
  }

  it('reads any stretch of a stream as the whole copy holds it', () => {
    const rate = 10;
    const floats = Float32Array.from({ length: 120 }, (_, i) => (i + 1) / 200);
    const streams: SpeechStream[] = [
      ...speechStreams(
        [
          { start: 1.04, end: 2.26 },
          { start: 5.05, end: 6 },
          { start: 9.5, end: 11.97 },
        ],
        12,
        { padding: 0.13, keptPause: 0.35, splitPause: Infinity },
      ),
      // Pieces that rounding makes overlap, a gap left silent, and a stream longer than the file.
      {
        pieces: [
          { fileStart: 0.04, fileEnd: 1.06, streamStart: 0 },
          { fileStart: 3, fileEnd: 4, streamStart: 0.96 },
          { fileStart: 6, fileEnd: 7, streamStart: 2.5 },
          { fileStart: 11.5, fileEnd: 13, streamStart: 3.5 },
        ],
        length: 5.5,
      },
    ];
    for (const samples of [floats, compactPcm(floats)]) {
      for (const stream of streams) {
        const whole = wholeStream(stream, samples, rate);
        expect([...streamSamples(stream, samples, rate)]).toEqual([...whole]);
        const audio = streamAudio(stream, samples, rate);
        expect(audio.length).toBe(whole.length);
        for (let from = 0; from <= whole.length + 2; from++) {
          for (let to = from; to <= whole.length + 3; to += 3) {
            expect([...streamSlice(stream, samples, rate, from, to)]).toEqual([
              ...whole.subarray(from, to),
            ]);
          }
        }
        expect([...audio.read(7, 19)]).toEqual([...whole.subarray(7, 19)]);
      }
    }
  });
});
