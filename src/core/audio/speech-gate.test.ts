import { describe, expect, it } from 'vitest';
import { frameLevelsDb } from './levels';
import { DEFAULT_LOUDNESS, loudRegions, unsettledLoudSeconds } from './loud-regions';
import { gateRegions, heardByLevelOnly, voicedSeconds } from './speech-gate';

const RATE = 16000;
const FRAME = 512;

/** A repeatable generator in [0, 1). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 2246822519) + 0x9e3779b9) >>> 0;
    return state / 4294967296;
  };
}

function noise(seconds: number, level: number, seed: number): Float32Array {
  const next = random(seed);
  return Float32Array.from({ length: seconds * RATE }, () => (next() * 2 - 1) * level);
}

/** Adds tone bursts of `seconds` at `at` (seconds) to the samples. */
function withBursts(samples: Float32Array, at: number[], seconds: number, level: number) {
  for (const t of at) {
    for (let i = Math.round(t * RATE); i < Math.round((t + seconds) * RATE); i++) {
      samples[i]! += level * Math.sin((2 * Math.PI * 220 * i) / RATE);
    }
  }
  return samples;
}

const loudOf = (samples: Float32Array) =>
  loudRegions(frameLevelsDb(samples, FRAME), samples.length / RATE);

describe('loud regions', () => {
  it('finds nothing in steady noise, however strong', () => {
    expect(loudOf(noise(20, 0.3, 1))).toEqual([]);
    expect(loudOf(noise(20, 0.001, 2))).toEqual([]);
  });

  it('finds stretches that rise above their own background', () => {
    const samples = withBursts(noise(20, 0.01, 3), [5, 12], 1.5, 0.2);
    const loud = loudOf(samples);
    expect(loud).toHaveLength(2);
    expect(loud[0]!.start).toBeCloseTo(5 - DEFAULT_LOUDNESS.padSeconds, 1);
    expect(loud[0]!.end).toBeCloseTo(6.5 + DEFAULT_LOUDNESS.padSeconds, 1);
    expect(loud[1]!.start).toBeCloseTo(12 - DEFAULT_LOUDNESS.padSeconds, 1);
  });

  it('drops a click and keeps nothing under the quiet level', () => {
    expect(loudOf(withBursts(noise(10, 0.01, 4), [5], 0.05, 0.5))).toEqual([]);
    expect(loudOf(withBursts(new Float32Array(10 * RATE), [5], 1, 0.0005))).toEqual([]);
  });

  it('does not change stretches that end before the unsettled tail as audio is added', () => {
    const samples = withBursts(noise(30, 0.01, 5), [3, 9, 16, 24], 1, 0.2);
    const whole = loudOf(samples);
    for (const seconds of [12, 19, 26]) {
      const part = loudOf(samples.subarray(0, seconds * RATE));
      const settled = part.filter((r) => r.end <= seconds - unsettledLoudSeconds());
      expect(whole.slice(0, settled.length)).toEqual(settled);
    }
  });
});

describe('speech gate', () => {
  const voice = [
    { start: 1, end: 3 },
    { start: 6, end: 7 },
  ];
  const loud = [
    { start: 0.5, end: 3.8 },
    { start: 10, end: 12 },
  ];

  it('adds the loud stretches outside VAD speech, marked as heard by level', () => {
    expect(gateRegions(voice, [...loud, { start: 7, end: 9 }])).toEqual([
      { start: 1, end: 3, heard: 'voice' },
      { start: 6, end: 7, heard: 'voice' },
      { start: 7, end: 9, heard: 'level' },
      { start: 10, end: 12, heard: 'level' },
    ]);
  });

  it('leaves out the short loud edges of VAD speech, not short loud stretches alone', () => {
    const gated = gateRegions(voice, [...loud, { start: 8, end: 8.4 }]);
    expect(gated.filter((r) => r.heard === 'level')).toEqual([
      { start: 8, end: 8.4, heard: 'level' },
      { start: 10, end: 12, heard: 'level' },
    ]);
  });

  it('keeps VAD speech as it is when nothing is loud', () => {
    expect(gateRegions(voice, [])).toEqual(voice.map((v) => ({ ...v, heard: 'voice' })));
  });

  it('tells a stretch mostly in VAD speech from one heard by level alone', () => {
    const gated = gateRegions(voice, [{ start: 3, end: 4.5 }, ...loud.slice(1)]);
    expect(voicedSeconds({ start: 0, end: 4 }, gated)).toBeCloseTo(2, 6);
    expect(heardByLevelOnly({ start: 1.5, end: 3.5 }, gated)).toBe(false);
    expect(heardByLevelOnly({ start: 10, end: 11 }, gated)).toBe(true);
    expect(heardByLevelOnly({ start: 2.5, end: 4 }, gated)).toBe(true);
  });
});

describe('speech gate on scattered VAD hits', () => {
  it('leaves a long loud stretch with VAD hits here and there to the recogniser as a whole', () => {
    const blips = [
      { start: 3, end: 3.8 },
      { start: 14, end: 15 },
    ];
    const gated = gateRegions(blips, [{ start: 0, end: 30 }]);
    expect(gated).toEqual([{ start: 0, end: 30, heard: 'level' }]);
  });

  it('keeps VAD speech that fills most of its loud stretch, and short stretches', () => {
    const talk = [
      { start: 1, end: 9 },
      { start: 10, end: 18 },
    ];
    expect(gateRegions(talk, [{ start: 0.5, end: 19 }]).filter((r) => r.heard === 'voice')).toEqual(
      talk.map((t) => ({ ...t, heard: 'voice' })),
    );
    const reply = [{ start: 2, end: 2.4 }];
    expect(gateRegions(reply, [{ start: 0, end: 6 }])[1]).toEqual({ ...reply[0], heard: 'voice' });
  });
});
