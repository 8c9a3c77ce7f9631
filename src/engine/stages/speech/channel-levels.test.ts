import { describe, expect, it } from 'vitest';
import { frameLevelsDb } from '../../../core/audio/levels';
import { pcmPeak, type StoredPcm } from '../../../core/audio/pcm';
import { ChannelLevels } from './channel-levels';

describe("the VAD windows' levels", () => {
  it('are those of the whole channel, measured once as it grows and read a stretch at a time', () => {
    const frame = 512;
    let seed = 3;
    const samples = Int16Array.from({ length: 2_000_000 }, () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.round((seed / 2147483648 - 0.5) * 20000);
    });
    let largest = 0;
    let read = 0;
    const stored: StoredPcm = {
      length: samples.length,
      read: (from, to) => {
        largest = Math.max(largest, to - from);
        read += to - from;
        return samples.slice(from, to);
      },
    };
    const levels = new ChannelLevels(frame);
    // Grown in uneven steps, then asked again for all of it.
    for (const length of [700_000, 700_000, 1_300_123, samples.length])
      levels.of(0, stored, length);
    const all = levels.of(0, stored);
    expect(all).toEqual(frameLevelsDb(samples, frame));
    expect(largest).toBeLessThanOrEqual(512 * frame);
    // Every sample of a whole frame read once.
    expect(read).toBe(Math.floor(samples.length / frame) * frame);
  });

  it("give the channel's peak from the same reads, reading again only what follows the last whole frame", () => {
    const frame = 512;
    const length = 1_000_000 + 300;
    const stored = (samples: Int16Array) => {
      const counted = { read: 0 };
      const pcm: StoredPcm = {
        length: samples.length,
        read: (from, to) => {
          counted.read += to - from;
          return samples.slice(from, to);
        },
      };
      return { pcm, counted };
    };
    // The loudest sample in a whole frame, in the part after the last one, and nowhere (silence).
    for (const [at, value] of [
      [123_456, -30_000],
      [length - 7, 31_000],
      [0, 0],
    ] as const) {
      const samples = new Int16Array(length).map((_, i) => ((i * 7919) % 2001) - 1000);
      samples[at] = value;
      if (value === 0) samples.fill(0);
      const { pcm, counted } = stored(samples);
      const levels = new ChannelLevels(frame);
      for (const grown of [400_000, 900_000]) levels.of(0, pcm, grown);
      levels.of(0, pcm);
      const measured = counted.read;
      expect(levels.peak(0, pcm)).toBe(pcmPeak(samples));
      expect(counted.read - measured).toBe(length % frame);
      // Asked first, the peak measures the levels on the way: each sample is read once.
      const fresh = stored(samples);
      expect(new ChannelLevels(frame).peak(0, fresh.pcm)).toBe(pcmPeak(samples));
      expect(fresh.counted.read).toBe(length);
    }
  });

  it('give the envelope channel comparison measures, from the same reads', () => {
    const frame = 512;
    const envelope = 160;
    const length = 1_000_000 + 300;
    const samples = new Int16Array(length).map((_, i) => ((i * 7919) % 2001) - 1000 + (i % 9973));
    let read = 0;
    const pcm: StoredPcm = {
      length,
      read: (from, to) => {
        read += to - from;
        return samples.slice(from, to);
      },
    };
    const levels = new ChannelLevels(frame, envelope);
    for (const grown of [333_333, 900_001]) levels.of(0, pcm, grown);
    const measured = read;
    expect(levels.envelopeLevels(0, pcm)).toEqual(frameLevelsDb(samples, envelope));
    // Only the samples after the last whole VAD window are read again.
    expect(read - measured).toBe(length - Math.floor(900_001 / frame) * frame);
    expect(levels.envelopeLevels(0, pcm)).toEqual(frameLevelsDb(samples, envelope));
    expect(new ChannelLevels(frame).envelopeLevels(0, pcm)).toBeNull();
  });
});
