import { describe, expect, it } from 'vitest';
import { clusterEmbeddings, normalise, spreadIndices } from './clustering';

/** A repeatable generator, so that the clouds below are the same on every run. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s ^ (s >>> 15), 2246822519) + 0x9e3779b9) >>> 0;
    return s / 4294967296;
  };
}

/** `perSpeaker` noisy unit vectors around each of `speakers` random directions in `dim`. */
function clouds(speakers: number, perSpeaker: number, noise: number, seed = 1, dim = 32) {
  const next = random(seed);
  const centres = Array.from({ length: speakers }, () =>
    normalise(Float32Array.from({ length: dim }, () => next() * 2 - 1)),
  );
  const vectors: Float32Array[] = [];
  const truth: number[] = [];
  for (let i = 0; i < speakers * perSpeaker; i++) {
    const c = i % speakers;
    vectors.push(normalise(Float32Array.from(centres[c]!, (x) => x + (next() * 2 - 1) * noise)));
    truth.push(c);
  }
  return { vectors, truth };
}

const counts = { num: null, min: null, max: null };

/** Whether two labellings split the items the same way (labels may be permuted). */
function samePartition(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  const map = new Map<number, number>();
  for (let i = 0; i < a.length; i++) {
    const seen = map.get(a[i]!);
    if (seen === undefined) map.set(a[i]!, b[i]!);
    else if (seen !== b[i]) return false;
  }
  return new Set(map.values()).size === map.size;
}

describe('clusterEmbeddings', () => {
  it('finds the number of speakers with the threshold when no count is given', () => {
    for (const speakers of [1, 2, 3, 4]) {
      const { vectors, truth } = clouds(speakers, 12, 0.15, speakers);
      const out = clusterEmbeddings(vectors, new Array(vectors.length).fill(0), {
        ...counts,
        threshold: 0.5,
      });
      expect(out.centroids).toHaveLength(speakers);
      expect(samePartition(out.labels, truth)).toBe(true);
    }
  });

  it('gives exactly the number asked for, more or fewer than the voices suggest', () => {
    const { vectors } = clouds(3, 10, 0.15, 7);
    const channels = new Array(vectors.length).fill(0);
    for (const num of [1, 2, 3, 5]) {
      const out = clusterEmbeddings(vectors, channels, { ...counts, num, threshold: 0.5 });
      expect(new Set(out.labels).size).toBe(num);
    }
  });

  it('stays within min and max', () => {
    const { vectors } = clouds(4, 10, 0.15, 3);
    const channels = new Array(vectors.length).fill(0);
    const atMost = clusterEmbeddings(vectors, channels, { ...counts, max: 2, threshold: 0.5 });
    expect(new Set(atMost.labels).size).toBe(2);
    const atLeast = clusterEmbeddings(vectors, channels, { ...counts, min: 6, threshold: 0.5 });
    expect(new Set(atLeast.labels).size).toBe(6);
  });

  it('keeps channels apart unless the count leaves no choice', () => {
    // The same voice on two channels (one person a channel, similar voices): two speakers.
    const { vectors } = clouds(1, 20, 0.1, 5);
    const channels = vectors.map((_, i) => i % 2);
    const apart = clusterEmbeddings(vectors, channels, { ...counts, threshold: 0.5 });
    expect(apart.centroids).toHaveLength(2);
    for (let i = 0; i < vectors.length; i++) {
      expect(apart.channels[apart.labels[i]!]!.has(channels[i]!)).toBe(true);
    }
    const forced = clusterEmbeddings(vectors, channels, { ...counts, num: 1, threshold: 0.5 });
    expect(new Set(forced.labels).size).toBe(1);
  });

  it('clusters many more embeddings than it links pairwise, by their nearest centroid', () => {
    const { vectors, truth } = clouds(3, 400, 0.15, 11);
    const out = clusterEmbeddings(vectors, new Array(vectors.length).fill(0), {
      ...counts,
      threshold: 0.5,
      maxLinked: 60,
    });
    expect(out.centroids).toHaveLength(3);
    expect(samePartition(out.labels, truth)).toBe(true);
  });

  it('returns nothing for no embeddings', () => {
    expect(clusterEmbeddings([], [], { ...counts, threshold: 0.5 }).centroids).toEqual([]);
  });
});

describe('spreadIndices', () => {
  it('spreads the picks over the whole range', () => {
    expect(spreadIndices(3, 5)).toEqual([0, 1, 2]);
    const picked = spreadIndices(1000, 10);
    expect(picked).toHaveLength(10);
    expect(picked[0]).toBeLessThan(100);
    expect(picked.at(-1)).toBeGreaterThan(900);
  });
});
