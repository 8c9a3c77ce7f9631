import { describe, expect, it } from 'vitest';
import { frameLevelsDb } from '../../../core/audio/levels';
import type { StoredPcm } from '../../../core/audio/pcm';
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
});
