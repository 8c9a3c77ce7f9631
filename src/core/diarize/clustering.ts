/**
 * Clustering of speaker embeddings under the request's speaker counts.
 *
 * Agglomerative clustering with centroid linkage on cosine distance (the method of pyannote's
 * pipeline), run on at most `maxLinked` embeddings spread evenly over the file, so that memory
 * stays bounded on long files: the linkage needs a matrix of every pair it links, and a 2-hour
 * file has thousands of windows. The clusters found there give centroids; every embedding is
 * then given to its nearest centroid and the centroids refined a few times (k-means), which
 * costs one row per embedding rather than a row per pair.
 *
 * Embeddings carry their channel. Separate channels hold separate people (one microphone each),
 * so two clusters of different channels are merged only when the count asked for leaves no
 * other choice: their distance carries a penalty larger than any cosine distance.
 */

export interface SpeakerCounts {
  /** Exactly this many speakers. */
  num: number | null;
  min: number | null;
  max: number | null;
}

export interface ClusteringOptions extends SpeakerCounts {
  /** Cosine distance under which two clusters are one speaker (model-dependent). */
  threshold: number;
  /** Most embeddings linked pairwise (default 400: a 400 x 400 matrix, 1.3 MB). */
  maxLinked?: number;
  /** Most speakers ever found without a count (default 20). */
  maxSpeakers?: number;
}

export interface Clusters {
  /** Cluster of each embedding, 0..k-1. */
  labels: Int32Array;
  /** Unit-length centroid of each cluster. */
  centroids: Float32Array[];
  /** Channels each cluster holds (one, unless a count forced channels together). */
  channels: Set<number>[];
}

const CROSS_CHANNEL = 10;

export function normalise(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  n = Math.sqrt(n) || 1;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i]! / n;
  return out;
}

function dot(a: Float32Array | Float64Array, b: Float32Array | Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function cosineDistance(a: Float64Array, b: Float64Array): number {
  const na = Math.sqrt(dot(a, a)) || 1;
  const nb = Math.sqrt(dot(b, b)) || 1;
  return 1 - dot(a, b) / (na * nb);
}

/** Indices of `count` items spread evenly over `n` (all of them when n <= count). */
export function spreadIndices(n: number, count: number): number[] {
  if (n <= count) return Array.from({ length: n }, (_, i) => i);
  return Array.from({ length: count }, (_, i) => Math.floor(((i + 0.5) * n) / count));
}

interface Linkage {
  /** The pairs merged (indices into the linked set, the first one kept), in the order made. */
  merges: [number, number][];
  /** Distance of each merge. */
  heights: number[];
}

/** Centroid-linkage agglomeration of `vectors` (unit length), every merge to one cluster. */
function link(vectors: Float32Array[], channels: number[]): Linkage {
  const m = vectors.length;
  const sums = vectors.map((v) => Float64Array.from(v));
  const chans = channels.map((c) => new Set([c]));
  const alive = new Uint8Array(m).fill(1);
  const dist = new Float64Array(m * m);
  const pairDistance = (i: number, j: number) => {
    const cross = [...chans[i]!].some((c) => !chans[j]!.has(c)) ? CROSS_CHANNEL : 0;
    return cosineDistance(sums[i]!, sums[j]!) + cross;
  };
  for (let i = 0; i < m; i++) {
    for (let j = i + 1; j < m; j++) dist[i * m + j] = dist[j * m + i] = pairDistance(i, j);
  }
  const merges: [number, number][] = [];
  const heights: number[] = [];
  for (let left = m; left > 1; left--) {
    let best = Infinity;
    let bi = -1;
    let bj = -1;
    for (let i = 0; i < m; i++) {
      if (!alive[i]) continue;
      const row = i * m;
      for (let j = i + 1; j < m; j++) {
        if (alive[j] && dist[row + j]! < best) {
          best = dist[row + j]!;
          bi = i;
          bj = j;
        }
      }
    }
    merges.push([bi, bj]);
    heights.push(best);
    const sum = sums[bi]!;
    const other = sums[bj]!;
    for (let d = 0; d < sum.length; d++) sum[d]! += other[d]!;
    for (const c of chans[bj]!) chans[bi]!.add(c);
    alive[bj] = 0;
    for (let k = 0; k < m; k++) {
      if (alive[k] && k !== bi) dist[bi * m + k] = dist[k * m + bi] = pairDistance(bi, k);
    }
  }
  return { merges, heights };
}

/** The members of each cluster left once the first merges leave `k` clusters of `m` items. */
function cut(linkage: Linkage, m: number, k: number): number[][] {
  const members = Array.from({ length: m }, (_, i) => [i]);
  for (const [a, b] of linkage.merges.slice(0, Math.max(0, m - k))) {
    members[a]!.push(...members[b]!);
    members[b] = [];
  }
  return members.filter((c) => c.length > 0);
}

/**
 * The clusters to keep: the count asked for; otherwise those the threshold leaves (merges
 * closer than it are made), without clusters of a single embedding among many (a stretch too
 * short or mixed to stand for a person; it goes to its nearest cluster afterwards), and when
 * that is outside min..max, the linkage cut at the nearest count allowed.
 */
function chooseClusters(
  vectors: Float32Array[],
  channels: number[],
  options: ClusteringOptions,
): number[][] {
  const m = vectors.length;
  const linkage = link(vectors, channels);
  if (options.num !== null) return cut(linkage, m, Math.min(options.num, m));
  const merged = linkage.heights.filter((h) => h < options.threshold).length;
  let clusters = cut(linkage, m, m - merged);
  if (m >= 10) {
    const kept = clusters.filter((c) => c.length > 1);
    if (kept.length > 0) clusters = kept;
  }
  let k = Math.min(clusters.length, options.maxSpeakers ?? 20);
  if (options.min !== null) k = Math.max(k, options.min);
  if (options.max !== null) k = Math.min(k, options.max);
  k = Math.max(1, Math.min(k, m));
  return k === clusters.length ? clusters : cut(linkage, m, k);
}

function centroidOf(vectors: readonly Float32Array[], indices: readonly number[], dim: number) {
  const c = new Float32Array(dim);
  for (const i of indices) {
    const v = vectors[i]!;
    for (let d = 0; d < dim; d++) c[d]! += v[d]!;
  }
  return normalise(c);
}

/**
 * Clusters unit-length embeddings (each with its channel) into speakers, honouring the counts:
 * exactly `num` when given (fewer only when there are fewer embeddings than that), else within
 * `min`..`max`, estimated with the threshold.
 */
export function clusterEmbeddings(
  embeddings: readonly Float32Array[],
  channels: readonly number[],
  options: ClusteringOptions,
): Clusters {
  const n = embeddings.length;
  if (n === 0) return { labels: new Int32Array(0), centroids: [], channels: [] };
  const dim = embeddings[0]!.length;
  const picked = spreadIndices(n, options.maxLinked ?? 400);
  const vectors = picked.map((i) => embeddings[i]!);
  const vectorChannels = picked.map((i) => channels[i]!);
  const clusters = chooseClusters(vectors, vectorChannels, options);
  // The linkage decides how many; its cut is a start. Centroid linkage cut at a given count
  // can split off a few stray embeddings and leave two people together, so the partition is
  // refined by k-means from it and from several spread-out starts, and the tightest kept.
  // Each start keeps the channels of what it was made from, so that one person heard on two
  // channels (two voices alike) stays two speakers.
  const starts = [
    {
      centroids: clusters.map((members) => centroidOf(vectors, members, dim)),
      channels: clusters.map((members) => new Set(members.map((i) => vectorChannels[i]!))),
    },
  ];
  const random = seeded(vectors.length * 7919 + clusters.length);
  for (let r = 0; r < RESTARTS; r++) {
    const seeds = spreadSeeds(vectors, vectorChannels, clusters.length, random);
    starts.push({
      centroids: seeds.map((i) => vectors[i]!),
      channels: seeds.map((i) => new Set([vectorChannels[i]!])),
    });
  }
  let best: Clusters & { cost: number } = {
    labels: new Int32Array(0),
    centroids: [],
    channels: [],
    cost: Infinity,
  };
  for (const start of starts) {
    const found = kMeans(embeddings, channels, start.centroids, start.channels, dim);
    if (found.cost < best.cost - 1e-9) best = found;
  }
  return { labels: best.labels, centroids: best.centroids, channels: best.channels };
}

/** k-means starts besides the linkage's: spread-out seeds (k-means++ on cosine distance). */
const RESTARTS = 8;

/** A repeatable generator in [0, 1), so that a file gives the same speakers every time. */
function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 2246822519) + 0x9e3779b9) >>> 0;
    return state / 4294967296;
  };
}

/**
 * Indices of `k` seeds drawn k-means++ style (each next one far from those drawn, with a probability by
 * its squared distance), one on each channel first when there are enough for every channel.
 */
function spreadSeeds(
  vectors: readonly Float32Array[],
  channels: readonly number[],
  k: number,
  random: () => number,
): number[] {
  const seeds: number[] = [];
  const byChannel = [...new Set(channels)];
  if (k >= byChannel.length) {
    for (const c of byChannel) {
      const on = vectors.flatMap((_, i) => (channels[i] === c ? [i] : []));
      seeds.push(on[Math.floor(random() * on.length)]!);
    }
  }
  if (seeds.length === 0) seeds.push(Math.floor(random() * vectors.length));
  while (seeds.length < k) {
    const d = vectors.map(
      (v) => Math.min(...seeds.map((s) => Math.max(0, 1 - dot(v, vectors[s]!)))) ** 2,
    );
    const total = d.reduce((a, b) => a + b, 0);
    if (total <= 0) break;
    let pick = random() * total;
    let i = 0;
    while (i < d.length - 1 && pick >= d[i]!) pick -= d[i++]!;
    seeds.push(i);
  }
  return seeds.slice(0, k);
}

/**
 * Spherical k-means from the given centroids: each embedding to its nearest centroid on its
 * channel, centroids moved to their members' mean, until nothing moves. The cost is the sum of
 * cosine distances to the centroids.
 */
function kMeans(
  embeddings: readonly Float32Array[],
  channels: readonly number[],
  start: readonly Float32Array[],
  startChannels: Set<number>[],
  dim: number,
): Clusters & { cost: number } {
  const n = embeddings.length;
  let centroids = start.map((c) => normalise(c));
  let clusterChannels = startChannels;
  const labels = new Int32Array(n).fill(-1);
  for (let round = 0; round < 20; round++) {
    let moved = false;
    for (let i = 0; i < n; i++) {
      const c = nearest(embeddings[i]!, channels[i]!, centroids, clusterChannels);
      if (c !== labels[i]) moved = true;
      labels[i] = c;
    }
    const members = centroids.map(() => [] as number[]);
    for (let i = 0; i < n; i++) members[labels[i]!]!.push(i);
    centroids = centroids.map((old, c) =>
      members[c]!.length > 0 ? centroidOf(embeddings, members[c]!, dim) : old,
    );
    clusterChannels = centroids.map((_, c) =>
      members[c]!.length > 0 ? new Set(members[c]!.map((i) => channels[i]!)) : clusterChannels[c]!,
    );
    if (!moved) break;
  }
  let cost = 0;
  for (let i = 0; i < n; i++) cost += 1 - dot(embeddings[i]!, centroids[labels[i]!]!);
  return { labels, centroids, channels: clusterChannels, cost };
}

/** The nearest centroid among the clusters of the embedding's channel (any, if none is). */
export function nearest(
  v: Float32Array,
  channel: number,
  centroids: readonly Float32Array[],
  channels: readonly Set<number>[],
): number {
  let best = -1;
  let bestScore = -Infinity;
  for (let pass = 0; pass < 2 && best < 0; pass++) {
    centroids.forEach((c, i) => {
      if (pass === 0 && !channels[i]!.has(channel)) return;
      const s = dot(v, c);
      if (s > bestScore) {
        bestScore = s;
        best = i;
      }
    });
  }
  return best;
}

/** Cosine similarity of two unit vectors. */
export function similarity(a: Float32Array, b: Float32Array): number {
  return dot(a, b);
}
