import { describe, expect, it } from 'vitest';
import { planWindows } from './windows';

const base = { sampleRate: 16000, windowSamples: 160000, frameStep: 270, stepSeconds: 5 };

describe('planWindows', () => {
  it('starts windows on the frame grid, half a window apart, up to the end', () => {
    const plan = planWindows({ ...base, samples: 30 * 16000, speech: [{ start: 0, end: 30 }] });
    expect(plan.stepFrames).toBe(296);
    const step = 296 * 270;
    // 4.995 s apart: five steps fall 320 samples short of the end, so a sixth window ends it.
    expect(plan.starts).toEqual([0, 1, 2, 3, 4, 5].map((i) => i * step));
    expect(plan.starts.at(-1)! + plan.windowSamples).toBeGreaterThanOrEqual(30 * 16000);
    for (const s of plan.starts) expect(s % 270).toBe(0);
  });

  it('looks only where there is speech', () => {
    const plan = planWindows({
      ...base,
      samples: 120 * 16000,
      speech: [
        { start: 2, end: 4 },
        { start: 100, end: 101 },
      ],
    });
    for (const s of plan.starts) {
      const [from, to] = [s / 16000, (s + plan.windowSamples) / 16000];
      expect((from < 4 && to > 2) || (from < 101 && to > 100)).toBe(true);
    }
    // Both stretches are seen, each by the windows that reach it.
    expect(plan.starts.some((s) => s / 16000 <= 2)).toBe(true);
    expect(plan.starts.some((s) => s / 16000 <= 100 && (s + 160000) / 16000 >= 101)).toBe(true);
    expect(plan.starts.length).toBeLessThan(8);
  });

  it('plans nothing for a channel without speech, and one window for a short file', () => {
    expect(planWindows({ ...base, samples: 16000 * 60, speech: [] }).starts).toEqual([]);
    expect(
      planWindows({ ...base, samples: 16000 * 3, speech: [{ start: 0.5, end: 2 }] }).starts,
    ).toEqual([0]);
  });
});
