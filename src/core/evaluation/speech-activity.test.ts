import { describe, expect, it } from 'vitest';
import { DEFAULT_LEVEL_NORMALISATION, normalisingGain } from '../audio/level-normalisation';
import { rttmSpeech, scoreSpeechActivity } from './speech-activity';

describe('speech activity scoring', () => {
  const all = { start: 0, end: 10 };
  it('counts missed speech and false alarms frame by frame against the reference', () => {
    const reference = [
      { start: 1, end: 4 },
      { start: 6, end: 8 },
    ];
    const hypothesis = [
      { start: 1.5, end: 4.5 },
      { start: 9, end: 9.5 },
    ];
    const s = scoreSpeechActivity(reference, hypothesis, all);
    expect(s.referenceSeconds).toBeCloseTo(5, 6);
    expect(s.hypothesisSeconds).toBeCloseTo(3.5, 6);
    expect(s.missedSeconds).toBeCloseTo(0.5 + 2, 6);
    expect(s.falseAlarmSeconds).toBeCloseTo(0.5 + 0.5, 6);
    expect(s.missedRate).toBeCloseTo(0.5, 6);
    expect(s.detectedRate).toBeCloseTo(0.5, 6);
    expect(s.falseAlarmRate).toBeCloseTo(0.2, 6);
  });
  it('scores only inside the evaluation span, and a perfect answer as perfect', () => {
    const reference = [{ start: 2, end: 12 }];
    const s = scoreSpeechActivity(reference, [{ start: 0, end: 8 }], { start: 5, end: 10 });
    expect(s.scoredSeconds).toBeCloseTo(5, 6);
    expect(s.missedSeconds).toBeCloseTo(2, 6);
    expect(s.falseAlarmSeconds).toBe(0);
    expect(scoreSpeechActivity(reference, reference, all)).toMatchObject({
      missedRate: 0,
      falseAlarmRate: 0,
    });
  });
  it('refuses an empty span or frame', () => {
    expect(() => scoreSpeechActivity([], [], { start: 3, end: 3 })).toThrow(RangeError);
    expect(() => scoreSpeechActivity([], [], all, 0)).toThrow(RangeError);
  });
  it('reads the speech of one file from an RTTM, overlapping turns merged', () => {
    const rttm = [
      'SPEAKER a 1 1.000 2.000 <NA> <NA> s1 <NA> <NA>',
      'SPEAKER b 1 0.000 9.000 <NA> <NA> s1 <NA> <NA>',
      'SPEAKER a 1 2.500 1.000 <NA> <NA> s2 <NA> <NA>',
      'SPEAKER a 1 5.000 0.500 <NA> <NA> s2 <NA> <NA>',
      '',
    ].join('\n');
    expect(rttmSpeech(rttm, 'a')).toEqual([
      { start: 1, end: 3.5 },
      { start: 5, end: 5.5 },
    ]);
    expect(() => rttmSpeech('SPEAKER a 1 x 2 <NA>', 'a')).toThrow(SyntaxError);
  });
});

describe('level normalisation', () => {
  const tone = (amplitude: number) =>
    Float32Array.from({ length: 16000 }, (_, i) => amplitude * Math.sin(i * 0.1));
  it('brings quiet audio up to the target, within the cap', () => {
    // A sine of amplitude 0.01 is at -43 dBFS RMS: +20 dB (the cap) leaves it at -23.
    const gain = normalisingGain(tone(0.01), 512);
    expect(20 * Math.log10(gain)).toBeCloseTo(DEFAULT_LEVEL_NORMALISATION.maxGainDb, 6);
    // At -33 dBFS it is brought to exactly -20.
    const closer = normalisingGain(tone(0.0316), 512);
    expect(20 * Math.log10(closer) + 20 * Math.log10(0.0316 / Math.SQRT2)).toBeCloseTo(-20, 0);
  });
  it('never turns loud audio down, and leaves silence as it is', () => {
    expect(normalisingGain(tone(0.5), 512)).toBe(1);
    expect(normalisingGain(new Float32Array(100), 512)).toBe(1);
  });
});
