import { describe, expect, it } from 'vitest';
import { hourlyPeaks } from './bench-media';

describe('the peak of each hour of a long transcription', () => {
  it('is the highest of its six ten-minute slices, the last hour taking what follows it', () => {
    // Two hours; slice 12 is after the last segment's hour (recognition's end).
    const slices = [500, 510, undefined, 520.4, 530, 540, 600, 610, 620, 630, 640, 650, 700];
    expect(hourlyPeaks(slices, 7200)).toEqual([540, 700]);
    // A partial hour is an hour; an hour nothing was filed under peaks at 0.
    expect(hourlyPeaks([500], 4000)).toEqual([500, 0]);
  });
});
