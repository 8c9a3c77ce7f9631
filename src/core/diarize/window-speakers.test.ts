import { describe, expect, it } from 'vitest';
import { normalise } from './clustering';
import { LOCAL_SPEAKERS } from './local-speakers';
import {
  assignByNeighbours,
  assignLocalSpeakers,
  reconstructTurns,
  type WindowSpeakers,
} from './window-speakers';

const e = (...v: number[]) => normalise(Float32Array.from(v));

describe('assignLocalSpeakers', () => {
  const centroids = [e(1, 0, 0), e(0, 1, 0), e(0, 0, 1)];

  it('never gives two local speakers of a window the same cluster', () => {
    // Both look most like cluster 0; the second is nearer to 1 than the first is.
    const out = assignLocalSpeakers([e(1, 0.2, 0), e(1, 0.9, 0), null], centroids, [
      true,
      true,
      true,
    ]);
    expect(out).toEqual([0, 1, -1]);
  });

  it('keeps to the clusters allowed, sharing them only when there are too few', () => {
    expect(assignLocalSpeakers([e(0, 0, 1)], centroids, [true, true, false])[0]).not.toBe(2);
    expect(
      assignLocalSpeakers([e(1, 0, 0), e(0.9, 0.1, 0)], centroids, [true, false, false]),
    ).toEqual([0, 0]);
  });
});

/** A window whose local speakers speak in the given frames ([speaker, from, to] runs). */
function window(
  firstFrame: number,
  frames: number,
  runs: [number, number, number][],
): WindowSpeakers {
  const active = new Uint8Array(frames * LOCAL_SPEAKERS);
  for (const [s, from, to] of runs)
    for (let f = from; f < to; f++) active[f * LOCAL_SPEAKERS + s] = 1;
  return { channel: 0, firstFrame, frames, active, embeddings: [null, null, null] };
}

describe('reconstructTurns', () => {
  it('joins overlapping windows whose local speakers are numbered differently', () => {
    // Frames of 0.1 s. Window A (frames 0-19): speaker x 0-10, y 10-20 as local 0 and 1.
    // Window B (frames 10-29): y 0-10, x 10-20 as local 1 and 0 -> clusters by assignment.
    const windows = [
      window(0, 20, [
        [0, 0, 10],
        [1, 10, 20],
      ]),
      window(10, 20, [
        [1, 0, 10],
        [0, 10, 20],
      ]),
    ];
    const turns = reconstructTurns({
      channel: 0,
      totalFrames: 30,
      windows,
      clusterOf: [
        [0, 1, -1],
        [0, 1, -1],
      ],
      clusters: 2,
      frameSeconds: 0.1,
      centreSeconds: 0.05,
    });
    const round = (x: number) => Math.round(x * 1000) / 1000;
    expect(turns.map((t) => [t.cluster, round(t.start), round(t.end)])).toEqual([
      [0, 0, 1],
      [1, 1, 2],
      [0, 2, 3],
    ]);
  });

  it('keeps both speakers where the windows count two at once', () => {
    const windows = [
      window(0, 10, [
        [0, 0, 10],
        [1, 5, 10],
      ]),
    ];
    const turns = reconstructTurns({
      channel: 2,
      totalFrames: 10,
      windows,
      clusterOf: [[3, 1, -1]],
      clusters: 4,
      frameSeconds: 0.1,
      centreSeconds: 0.05,
    });
    expect(turns.map((t) => [t.cluster, t.channel, t.start, Math.round(t.end * 10) / 10])).toEqual([
      [3, 2, 0, 1],
      [1, 2, 0.5, 1],
    ]);
  });

  it('finds nobody where no window looked', () => {
    const turns = reconstructTurns({
      channel: 0,
      totalFrames: 100,
      windows: [window(50, 10, [[0, 0, 10]])],
      clusterOf: [[0, -1, -1]],
      clusters: 1,
      frameSeconds: 0.1,
      centreSeconds: 0.05,
    });
    expect(turns).toHaveLength(1);
    expect(turns[0]!.start).toBeCloseTo(5);
    expect(turns[0]!.end).toBeCloseTo(6);
  });
});

describe('assignByNeighbours', () => {
  it('takes the clusters the neighbours hear in the same frames, numbered its own way', () => {
    // Neighbour before: local 0 is cluster 2 in frames 0-9, local 1 is cluster 0 in 10-19.
    const before = window(0, 20, [
      [0, 0, 10],
      [1, 10, 20],
    ]);
    // Neighbour after: local 0 is cluster 1 in frames 20-29 (its own frames 10-19).
    const after = window(10, 20, [[0, 10, 20]]);
    // The window between (frames 5-24): its local 2 speaks in 5-9, local 0 in 10-19, local 1 in 20-24.
    const between = window(5, 20, [
      [2, 0, 5],
      [0, 5, 15],
      [1, 15, 20],
    ]);
    const out = assignByNeighbours(
      between,
      [
        { window: before, clusters: [2, 0, -1] },
        { window: after, clusters: [1, -1, -1] },
      ],
      3,
    );
    expect(out).toEqual([0, 1, 2]);
  });

  it('leaves a local speaker no neighbour hears without a cluster', () => {
    const lonely = window(0, 10, [[1, 0, 10]]);
    const silent = window(0, 10, []);
    expect(assignByNeighbours(lonely, [{ window: silent, clusters: [0, 1, 2] }], 3)).toEqual([
      -1, -1, -1,
    ]);
  });
});
