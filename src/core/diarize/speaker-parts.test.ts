import { describe, expect, it } from 'vitest';
import { normalise } from './clustering';
import { LOCAL_SPEAKERS, speakerFrames } from './local-speakers';
import { freeLocalSpeaker, speakerParts, splitLocalSpeaker } from './speaker-parts';

/** A window of `frames` frames where local speaker `s` is active in the runs given for it. */
function windowOf(frames: number, runs: Record<number, [number, number][]>) {
  const active = new Uint8Array(frames * LOCAL_SPEAKERS);
  for (const [s, rs] of Object.entries(runs)) {
    for (const [a, b] of rs) for (let f = a; f < b; f++) active[f * LOCAL_SPEAKERS + Number(s)] = 1;
  }
  return active;
}

const unit = (...xs: number[]) => normalise(Float32Array.from(xs));

describe('speakerParts', () => {
  it('groups runs closer than the gap and splits at longer silences', () => {
    const active = windowOf(100, {
      0: [
        [0, 10],
        [12, 20],
        [40, 50],
        [53, 60],
      ],
    });
    const parts = speakerParts(speakerFrames(active, 100, 0), 5);
    expect(parts.map((p) => p.active)).toEqual([
      [
        [0, 10],
        [12, 20],
      ],
      [
        [40, 50],
        [53, 60],
      ],
    ]);
    expect(parts.map((p) => p.alone)).toEqual(parts.map((p) => p.active));
  });

  it('gives nothing for a silent local speaker', () => {
    expect(speakerParts(speakerFrames(windowOf(10, {}), 10, 1), 5)).toEqual([]);
  });
});

describe('freeLocalSpeaker', () => {
  it('finds a silent local speaker, or none', () => {
    expect(freeLocalSpeaker(windowOf(10, { 0: [[0, 5]], 2: [[5, 10]] }), 10)).toBe(1);
    expect(freeLocalSpeaker(windowOf(10, { 0: [[0, 5]], 1: [[5, 6]], 2: [[6, 7]] }), 10)).toBe(-1);
  });
});

describe('splitLocalSpeaker', () => {
  const centroids = [unit(1, 0, 0), unit(0, 1, 0)];
  const both = [true, true];

  it('moves the stretches nearest another speaker to a silent local speaker', () => {
    // Local speaker 0 holds person 0 (40 frames) and, after a pause, person 1 (20 frames).
    const active = windowOf(100, {
      0: [
        [0, 40],
        [60, 80],
      ],
    });
    const window = { frames: 100, active, embeddings: [unit(1, 0.1, 0), null, null] };
    const parts = speakerParts(speakerFrames(active, 100, 0), 5);
    const moved = splitLocalSpeaker(
      window,
      { speaker: 0, parts, embeddings: [unit(1, 0.2, 0), unit(0.1, 1, 0)] },
      centroids,
      both,
    );
    expect(moved).toBe(true);
    expect(speakerFrames(active, 100, 0).active).toEqual([[0, 40]]);
    const free = [1, 2].find((s) => speakerFrames(active, 100, s).activeCount > 0)!;
    expect(speakerFrames(active, 100, free).active).toEqual([[60, 80]]);
    expect(window.embeddings[0]).toEqual(unit(1, 0.2, 0));
    expect(window.embeddings[free]).toEqual(unit(0.1, 1, 0));
  });

  it('leaves a local speaker whose stretches are all one person alone', () => {
    const active = windowOf(100, {
      0: [
        [0, 40],
        [60, 80],
      ],
    });
    const before = active.slice();
    const window = { frames: 100, active, embeddings: [unit(1, 0, 0), null, null] };
    const parts = speakerParts(speakerFrames(active, 100, 0), 5);
    const local = { speaker: 0, parts, embeddings: [unit(1, 0.2, 0), unit(1, -0.1, 0.1)] };
    expect(splitLocalSpeaker(window, local, centroids, both)).toBe(false);
    expect(active).toEqual(before);
  });

  it('moves nothing when no local speaker is silent, or the other speaker is not allowed', () => {
    const full = windowOf(100, {
      0: [
        [0, 40],
        [60, 80],
      ],
      1: [[40, 45]],
      2: [[85, 90]],
    });
    const parts = speakerParts(speakerFrames(full, 100, 0), 5);
    const local = { speaker: 0, parts, embeddings: [unit(1, 0, 0), unit(0, 1, 0)] };
    const window = { frames: 100, active: full, embeddings: [unit(1, 0, 0), null, null] };
    expect(splitLocalSpeaker(window, local, centroids, both)).toBe(false);
    const roomy = windowOf(100, {
      0: [
        [0, 40],
        [60, 80],
      ],
    });
    const other = { frames: 100, active: roomy, embeddings: [unit(1, 0, 0), null, null] };
    expect(splitLocalSpeaker(other, local, centroids, [true, false])).toBe(false);
  });
});
