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

/**
 * Two people whose voices lie `apart` (cosine distance between their centres) with `each`
 * embeddings apiece, in turn, and one stray embedding far from both (a window of two voices at
 * once, or of a noise): the shape of a conversation of two voices the embedding model hears as
 * near, where one window went wrong.
 */
function twoPeopleAndAStray(each: number, apart: number, seed: number) {
  const next = random(seed);
  const dim = 32;
  const axis = (k: number) => Float32Array.from({ length: dim }, (_, d) => (d === k ? 1 : 0));
  // Centres on the unit circle of axes 0 and 1, at the angle that gives `apart`.
  const angle = Math.acos(1 - apart);
  const centres = [
    axis(0),
    normalise(
      Float32Array.from(axis(0), (x, d) =>
        d === 0 ? Math.cos(angle) : d === 1 ? Math.sin(angle) : 0,
      ),
    ),
  ];
  const jitter = (c: Float32Array) =>
    normalise(Float32Array.from(c, (x) => x + (next() * 2 - 1) * 0.05));
  const vectors: Float32Array[] = [];
  const truth: number[] = [];
  for (let i = 0; i < 2 * each; i++) {
    vectors.push(jitter(centres[i % 2]!));
    truth.push(i % 2);
  }
  // Opposite both people: farther from either than they are from each other.
  vectors.push(jitter(normalise(Float32Array.from(centres[0]!, (x, d) => -x - centres[1]![d]!))));
  truth.push(-1);
  return { vectors, truth, stray: vectors.length - 1 };
}

/** The labels of the items whose truth is `who`, as a set. */
const labelsOf = (labels: ArrayLike<number>, truth: readonly number[], who: number) =>
  new Set(Array.from(labels).filter((_, i) => truth[i] === who));

describe('clusterEmbeddings: small clusters are not speakers', () => {
  // Without a count a cluster needs at most a fifth of the embeddings: 25 of them here.
  for (const [num, each] of [
    [2, 6],
    [null, 12],
  ] as const) {
    it(`gives two near voices a speaker each and the stray to one of them (num ${num})`, () => {
      const { vectors, truth } = twoPeopleAndAStray(each, 0.35, 3);
      const out = clusterEmbeddings(vectors, new Array(vectors.length).fill(0), {
        ...counts,
        num,
        threshold: 0.2,
      });
      expect(out.centroids).toHaveLength(2);
      const a = labelsOf(out.labels, truth, 0);
      const b = labelsOf(out.labels, truth, 1);
      expect(a.size).toBe(1);
      expect(b.size).toBe(1);
      expect([...a][0]).not.toBe([...b][0]);
    });
  }

  it('meets a count above the voices by splitting a voice, never with a lone embedding', () => {
    const { vectors } = twoPeopleAndAStray(10, 0.6, 5);
    const channels = new Array(vectors.length).fill(0);
    for (const num of [3, 4]) {
      const out = clusterEmbeddings(vectors, channels, { ...counts, num, threshold: 0.3 });
      const sizes = out.centroids.map((_, k) => out.labels.filter((l) => l === k).length);
      expect(sizes).toHaveLength(num);
      expect(Math.min(...sizes)).toBeGreaterThanOrEqual(2);
    }
  });

  it('gives the stray a speaker of its own only when the count leaves no other way', () => {
    // Three embeddings, three speakers asked for: each is one.
    const { vectors } = twoPeopleAndAStray(1, 0.6, 9);
    const out = clusterEmbeddings(vectors, [0, 0, 0], { ...counts, num: 3, threshold: 0.3 });
    expect(new Set(out.labels).size).toBe(3);
  });

  it('honours a larger minimum cluster size', () => {
    // A third voice heard in 2 windows among 24: a speaker with the default, not with 3.
    const { vectors, truth } = clouds(2, 12, 0.1, 13);
    const third = clouds(1, 2, 0.05, 14);
    const all = [...vectors, ...third.vectors];
    const channels = new Array(all.length).fill(0);
    const options = { ...counts, threshold: 0.3 };
    expect(clusterEmbeddings(all, channels, options).centroids).toHaveLength(3);
    const strict = clusterEmbeddings(all, channels, { ...options, minClusterSize: 3 });
    expect(strict.centroids).toHaveLength(2);
    expect(samePartition(strict.labels.subarray(0, vectors.length), truth)).toBe(true);
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
