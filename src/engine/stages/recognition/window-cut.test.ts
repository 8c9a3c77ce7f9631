import { describe, expect, it } from 'vitest';
import { speechStreams } from '../../../core/decoding/speech-streams';
import { firstWindowCut, windowCut } from './window-cut';

/** Speech regions of a file laid out as a stream, as recognition does (0.2-s padding, 0.5-s pauses). */
const stream = (regions: [number, number][]) =>
  speechStreams(
    regions.map(([start, end]) => ({ start, end })),
    10_000,
    { padding: 0.2, keptPause: 0.5, splitPause: Infinity },
  )[0]!;

describe('a window decoded in a batch', () => {
  it('ends in the middle of the last long pause inside it', () => {
    // Speech 0-12 s, 20-31 s, 40-70 s: in the stream, pauses begin at 12.2 and 24.1 s.
    const s = stream([
      [0, 12],
      [20, 31],
      [40, 70],
    ]);
    const starts = s.pieces.map((p) => p.streamStart);
    [0, 12.2, 24.1].forEach((t, i) => expect(starts[i]).toBeCloseTo(t, 9));
    const cut = windowCut(s, 0, 30, 30, 0.5);
    expect(cut.whole).toBe(true);
    expect(cut.seconds).toBeCloseTo(24.35, 9);
    // From the cut on, the next pause is beyond the window: speech runs on through it.
    const next = windowCut(s, cut.seconds, 30, 30, 0.5);
    expect(next).toEqual({ seconds: 30, whole: false });
  });

  it('is whole where it is shorter than the model’s window: the end of its stream', () => {
    const s = stream([[0, 20]]);
    expect(windowCut(s, 0, 20.2, 30, 0.5)).toEqual({ seconds: 20.2, whole: true });
  });

  it('does not end in a pause it starts in', () => {
    const s = stream([
      [0, 12],
      [20, 60],
    ]);
    expect(windowCut(s, 12.2, 30, 30, 0.5)).toEqual({ seconds: 30, whole: false });
  });

  it('runs on through continuous speech', () => {
    expect(windowCut(stream([[0, 100]]), 30, 30, 30, 0.5)).toEqual({ seconds: 30, whole: false });
  });
});

describe("a channel's first window cut short", () => {
  // Speech 0-3 s, 4.5-7 s, 9-20 s: in the stream, pauses begin at 3.2 and 6.6 s.
  const s = stream([
    [0, 3],
    [4.5, 7],
    [9, 20],
  ]);

  it('ends in the middle of the last long pause between the least and the most it may hold', () => {
    expect(firstWindowCut(s, 3, 8, 0.5)).toBeCloseTo(6.85, 9);
    expect(firstWindowCut(s, 3, 6, 0.5)).toBeCloseTo(3.45, 9);
  });

  it('is not cut where no pause lies in that span', () => {
    expect(firstWindowCut(s, 4, 6, 0.5)).toBeNull();
    expect(firstWindowCut(stream([[0, 30]]), 3, 8, 0.5)).toBeNull();
  });

  it('depends only on the part of the stream it may hold', () => {
    const longer = stream([
      [0, 3],
      [4.5, 7],
      [9, 20],
      [22, 40],
    ]);
    expect(firstWindowCut(longer, 3, 8, 0.5)).toBe(firstWindowCut(s, 3, 8, 0.5));
  });
});
