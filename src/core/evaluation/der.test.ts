import { describe, expect, it } from 'vitest';
import { diarizationError } from './der';
import type { SpeakerTurn } from './rttm';

const turn = (speaker: string, start: number, end: number): SpeakerTurn => ({
  speaker,
  start,
  end,
});

/**
 * The worked example.
 *
 * Reference: A 0-10, B 8-14 (A and B overlap 8-10), A 16-20.
 *   total = 10 + 6 + 4 = 20 s of speaker time (the overlap counts for both).
 * Hypothesis: h1 0-4, h1 5-10, h2 10-14, h3 12-13, h2 16-18, h1 18-20, h2 21-22.
 *
 * Pieces (reference | hypothesis):
 *   0-4    A   | h1       right
 *   4-5    A   | -        missed 1 x 1 = 1
 *   5-8    A   | h1       right
 *   8-10   A B | h1       missed (2 - 1) x 2 = 2; h1 is A's, so no confusion
 *   10-12  B   | h2       right
 *   12-13  B   | h2 h3    false alarm (2 - 1) x 1 = 1
 *   13-14  B   | h2       right
 *   16-18  A   | h2       confusion 1 x 2 = 2 (h2 is B's)
 *   18-20  A   | h1       right
 *   21-22  -   | h2       false alarm 1 x 1 = 1
 *
 * Shared time: A-h1 4 + 3 + 2 + 2 = 11, A-h2 2, B-h1 2, B-h2 4, B-h3 1.
 *   A->h1, B->h2 shares 15; A->h2, B->h1 only 4; A->h1, B->h3 12. So A->h1, B->h2.
 * missed 1 + 2 = 3, false alarm 1 + 1 = 2, confusion 2: DER = (3 + 2 + 2) / 20 = 0.35.
 */
const REFERENCE = [turn('A', 0, 10), turn('B', 8, 14), turn('A', 16, 20)];
const HYPOTHESIS = [
  turn('h1', 0, 4),
  turn('h1', 5, 10),
  turn('h2', 10, 14),
  turn('h3', 12, 13),
  turn('h2', 16, 18),
  turn('h1', 18, 20),
  turn('h2', 21, 22),
];

describe('diarizationError', () => {
  it('scores the worked example part by part', () => {
    const e = diarizationError(REFERENCE, HYPOTHESIS);
    expect(e.total).toBeCloseTo(20, 9);
    expect(e.missed).toBeCloseTo(3, 9);
    expect(e.falseAlarm).toBeCloseTo(2, 9);
    expect(e.confusion).toBeCloseTo(2, 9);
    expect(e.der).toBeCloseTo(0.35, 9);
    expect(e.missedRate).toBeCloseTo(0.15, 9);
    expect(e.falseAlarmRate).toBeCloseTo(0.1, 9);
    expect(e.confusionRate).toBeCloseTo(0.1, 9);
    expect(e.mapping).toEqual(
      new Map([
        ['A', 'h1'],
        ['B', 'h2'],
      ]),
    );
  });

  it('scores a perfect hypothesis 0 whatever its labels', () => {
    const renamed = REFERENCE.map((t) => ({
      ...t,
      speaker: t.speaker === 'A' ? 'spk_9' : 'spk_1',
    }));
    const e = diarizationError(REFERENCE, [...renamed].reverse());
    expect(e.der).toBe(0);
    expect(e.total).toBeCloseTo(20, 9);
    expect(e.mapping.get('A')).toBe('spk_9');
  });

  it('counts a hypothesis turn cut in two the same as one', () => {
    const split = [turn('x', 0, 5), turn('x', 5, 10), turn('y', 8, 14), turn('x', 16, 20)];
    expect(diarizationError(REFERENCE, split).der).toBe(0);
  });

  it('scores an empty hypothesis as all missed', () => {
    const e = diarizationError(REFERENCE, []);
    expect(e.der).toBe(1);
    expect(e.missed).toBeCloseTo(20, 9);
    expect(e.mapping.size).toBe(0);
  });

  it('scores one label for everyone as confusion and missed overlap', () => {
    // 0-8 and 10-14 and 16-20: right for A (mapped to s) except B's 10-14 (confusion 4);
    // 8-10: two reference speakers, one hypothesis speaker: missed 2.
    const e = diarizationError(REFERENCE, [turn('s', 0, 14), turn('s', 16, 20)]);
    expect(e.confusion).toBeCloseTo(4, 9);
    expect(e.missed).toBeCloseTo(2, 9);
    expect(e.falseAlarm).toBe(0);
    expect(e.der).toBeCloseTo(6 / 20, 9);
  });

  describe('collar', () => {
    // The hypothesis ends and starts 0.2 s off each reference boundary.
    const reference = [turn('A', 0, 10), turn('B', 12, 20)];
    const hypothesis = [turn('x', 0.2, 10.2), turn('y', 11.8, 19.8)];

    it('counts boundary errors without a collar', () => {
      // missed 0-0.2 and 19.8-20, false alarm 10-10.2 and 11.8-12: 0.4 + 0.4 of 18 s.
      const e = diarizationError(reference, hypothesis);
      expect(e.missed).toBeCloseTo(0.4, 9);
      expect(e.falseAlarm).toBeCloseTo(0.4, 9);
      expect(e.total).toBeCloseTo(18, 9);
      expect(e.der).toBeCloseTo(0.8 / 18, 9);
    });

    it('ignores both sides within the collar of a reference boundary', () => {
      // Scored: 0.25-9.75 and 12.25-19.75 (10.25-11.75 holds no speech), 17 s of reference.
      const e = diarizationError(reference, hypothesis, { collar: 0.25 });
      expect(e.der).toBe(0);
      expect(e.total).toBeCloseTo(17, 9);
    });

    it('still counts errors beyond the collar', () => {
      // y runs on to 21: 20.25-21 is outside every collar, 0.75 s of false alarm.
      const e = diarizationError(reference, [turn('x', 0, 10), turn('y', 12, 21)], {
        collar: 0.25,
      });
      expect(e.falseAlarm).toBeCloseTo(0.75, 9);
      expect(e.der).toBeCloseTo(0.75 / 17, 9);
    });

    it('drops a reference turn shorter than two collars', () => {
      const e = diarizationError([turn('A', 0, 10), turn('B', 5, 5.4)], [turn('x', 0, 10)], {
        collar: 0.25,
      });
      // Scored: 0.25-4.75 and 5.65-9.75 = 8.6 s, all A, all right.
      expect(e.total).toBeCloseTo(8.6, 9);
      expect(e.der).toBe(0);
    });

    it('refuses a negative collar', () => {
      expect(() => diarizationError(REFERENCE, HYPOTHESIS, { collar: -1 })).toThrow(RangeError);
    });
  });

  it('scores only inside the UEM', () => {
    // 0-10 holds A 0-10, B 8-10 (h1 only: missed 2) and h1's gap 4-5 (missed 1): 3 of 12.
    const e = diarizationError(REFERENCE, HYPOTHESIS, { uem: { start: 0, end: 10 } });
    expect(e.total).toBeCloseTo(12, 9);
    expect(e.missed).toBeCloseTo(3, 9);
    expect(e.der).toBeCloseTo(3 / 12, 9);
  });

  it('scores several UEM stretches together', () => {
    // 0-4 (A|h1, right) and 8-10 (A B|h1, missed 2): 2 of 4 + 4.
    const e = diarizationError(REFERENCE, HYPOTHESIS, {
      uem: [
        { start: 8, end: 10 },
        { start: 0, end: 4 },
      ],
    });
    expect(e.total).toBeCloseTo(8, 9);
    expect(e.missed).toBeCloseTo(2, 9);
    expect(e.der).toBeCloseTo(2 / 8, 9);
  });

  it('is 0 with nothing on either side, and infinite with speech only in the hypothesis', () => {
    expect(diarizationError([], []).der).toBe(0);
    const e = diarizationError([], [turn('x', 0, 1)]);
    expect(e.falseAlarm).toBe(1);
    expect(e.der).toBe(Infinity);
  });
});
