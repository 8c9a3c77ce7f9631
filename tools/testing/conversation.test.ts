import { describe, expect, it } from 'vitest';
import {
  conversation,
  HELD_OUT_VOICES,
  heldOutVoices,
  stereoCall,
  voicedExtent,
} from './conversation';

const level = (samples: Float32Array, from: number, to: number) => {
  let peak = 0;
  for (let i = Math.round(from * 16000); i < Math.round(to * 16000); i++) {
    peak = Math.max(peak, Math.abs(samples[i] ?? 0));
  }
  return peak;
};

describe('voicedExtent', () => {
  it('finds the loud part between silences', () => {
    const samples = new Float32Array(16000);
    for (let i = 4000; i < 8000; i++) samples[i] = Math.sin(i / 5) * 0.3;
    expect(voicedExtent(samples)).toEqual({ start: 4000, end: 8000 });
    expect(voicedExtent(new Float32Array(1600))).toEqual({ start: 0, end: 0 });
  });
});

describe('conversation', () => {
  const options = { speakers: 3, turns: 8, overlapShare: 0.5, seed: 11 };
  const c = conversation(options);

  it('is the same for the same seed', () => {
    const again = conversation(options);
    expect(again.turns).toEqual(c.turns);
    expect(again.samples).toEqual(c.samples);
  });

  it('has every speaker, never two turns of one person at once, never three people at once', () => {
    expect(new Set(c.turns.map((t) => t.speaker))).toEqual(new Set(['A', 'B', 'C']));
    expect(c.turns).toHaveLength(8);
    for (const [i, t] of c.turns.entries()) {
      expect(t.end).toBeGreaterThan(t.start);
      expect(t.end).toBeLessThanOrEqual(c.samples.length / 16000);
      const later = c.turns.slice(i + 1).filter((u) => u.start < t.end);
      expect(later.length).toBeLessThanOrEqual(1);
      for (const u of later) expect(u.speaker).not.toBe(t.speaker);
    }
    expect(c.turns.some((t, i) => i > 0 && t.start < c.turns[i - 1]!.end)).toBe(true);
  });

  it('is silent between turns and sounds within them', () => {
    for (const [i, t] of c.turns.entries()) {
      expect(level(c.samples, t.start, t.start + 0.1)).toBeGreaterThan(0.01);
      const following = c.turns[i + 1];
      if (following && following.start > t.end + 0.05) {
        expect(level(c.samples, t.end + 0.02, following.start - 0.02)).toBeLessThan(0.01);
      }
    }
  });
});

describe('stereoCall', () => {
  it('keeps each person on their own channel, silent while the other speaks', () => {
    const call = stereoCall({ seed: 5, turns: 6 });
    expect(call.turns.map((t) => t.channel)).toEqual(
      call.turns.map((t) => (t.speaker === 'A' ? 0 : 1)),
    );
    for (const [i, t] of call.turns.entries()) {
      if (i > 0) expect(t.start).toBeGreaterThan(call.turns[i - 1]!.end);
      expect(level(call.channels[t.channel]!, t.start, t.end)).toBeGreaterThan(0.1);
      expect(level(call.channels[1 - t.channel]!, t.start, t.end)).toBe(0);
    }
  });
});

describe('heldOutVoices', () => {
  const within = (x: number, bands: readonly (readonly [number, number])[]) =>
    bands.some(([low, high]) => low <= x && x <= high);

  it('draws held-out voices of distinct variants, the same for the same seed', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const voices = heldOutVoices(4, seed);
      expect(new Set(voices.map((v) => v.variant)).size).toBe(4);
      for (const v of voices) {
        expect(HELD_OUT_VOICES.variants).toContain(v.variant);
        expect(within(v.pitch, HELD_OUT_VOICES.pitches)).toBe(true);
        expect(within(v.speed, HELD_OUT_VOICES.speeds)).toBe(true);
      }
      expect(heldOutVoices(4, seed)).toEqual(voices);
    }
    expect(heldOutVoices(3, 1)).not.toEqual(heldOutVoices(3, 2));
  });

  it('has no sixth variant to give', () => {
    expect(() => heldOutVoices(6, 1)).toThrow();
  });
});
