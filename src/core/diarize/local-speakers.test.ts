import { describe, expect, it } from 'vitest';
import {
  LOCAL_SPEAKERS,
  embeddingFrames,
  framesAudio,
  localActivity,
  speakerFrames,
} from './local-speakers';

/** Logits that make class `c` the likeliest in each frame. */
function logitsOf(classes: number[]): Float32Array {
  const out = new Float32Array(classes.length * 7).fill(-5);
  classes.forEach((c, f) => (out[f * 7 + c] = 0));
  return out;
}

describe('localActivity', () => {
  it('reads the powerset: nobody, one alone, two at once', () => {
    const active = localActivity(logitsOf([0, 1, 4, 2, 6, 3]), 6, 7);
    const at = (f: number) => [0, 1, 2].map((s) => active[f * LOCAL_SPEAKERS + s]);
    expect([0, 1, 2, 3, 4, 5].map(at)).toEqual([
      [0, 0, 0],
      [1, 0, 0],
      [1, 1, 0],
      [0, 1, 0],
      [0, 1, 1],
      [0, 0, 1],
    ]);
  });
});

describe('embeddingFrames', () => {
  const classes = [1, 1, 1, 1, 4, 4, 1, 1, 0, 2, 2];
  const active = localActivity(logitsOf(classes), classes.length, 7);

  it('takes the frames where the speaker is alone, longest first, up to the most', () => {
    const frames = speakerFrames(active, classes.length, 0);
    expect(frames.active).toEqual([[0, 8]]);
    expect(frames.alone).toEqual([
      [0, 4],
      [6, 8],
    ]);
    expect(frames.activeCount).toBe(8);
    expect(embeddingFrames(frames, 2, 10)).toEqual([
      [0, 4],
      [6, 8],
    ]);
    // Capped: the middle of the longest stretch.
    expect(embeddingFrames(frames, 2, 2)).toEqual([[1, 3]]);
  });

  it('falls back to every frame of the speaker when it is too rarely alone, else none', () => {
    const frames = speakerFrames(active, classes.length, 1);
    expect(frames.alone).toEqual([[9, 11]]);
    expect(embeddingFrames(frames, 3, 10)).toEqual([
      [4, 6],
      [9, 11],
    ]);
    expect(embeddingFrames(frames, 5, 10)).toBeNull();
    expect(embeddingFrames(speakerFrames(active, classes.length, 2), 1, 10)).toBeNull();
  });
});

describe('framesAudio', () => {
  it('joins the samples each run of frames sees', () => {
    const window = Float32Array.from({ length: 40 }, (_, i) => i);
    // Frames every 4 samples, each seeing 6: frames 1-2 see 4..13, frame 6 sees 24..29.
    expect([
      ...framesAudio(
        window,
        [
          [1, 3],
          [6, 7],
        ],
        4,
        6,
      ),
    ]).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 24, 25, 26, 27, 28, 29]);
  });
});
