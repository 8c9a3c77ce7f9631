/**
 * Clustering of speaker embeddings under the request's speaker counts.
 *
 * Agglomerative clustering with centroid linkage on cosine distance, as pyannote's pipeline
 * does it: the dendrogram is cut where merges stop being closer than the embedding model's
 * threshold (or, under a count, at the cut nearest that threshold that gives the count), and
 * only clusters of at least a few embeddings are speakers. A smaller cluster is a stretch too
 * short or too mixed to stand for a person (an overlap, a segmentation slip): it is given to
 * the nearest speaker instead of becoming one, so a count is met by merging or keeping large
 * clusters apart, not by keeping a stray window.
 *
 * The linkage runs on at most `maxLinked` embeddings spread evenly over the file, so that memory
 * stays bounded on long files: it needs a matrix of every pair it links, and a 2-hour file has
 * thousands of windows. Every embedding left out is given to the nearest speaker's centroid,
 * which costs one row per embedding rather than a row per pair.
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
  /**
   * Fewest embeddings a cluster needs to be a speaker (default 2); smaller ones join the
   * nearest speaker. Without a count, no more than a fifth of the file's embeddings are asked.
   */
  minClusterSize?: number;
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

/** How many clusters of at least `minSize` items there are after each number of merges (0..m-1). */
function largeCounts(linkage: Linkage, m: number, minSize: number): number[] {
  const size = new Array<number>(m).fill(1);
  let large = minSize <= 1 ? m : 0;
  const out = [large];
  for (const [a, b] of linkage.merges) {
    const was = (size[a]! >= minSize ? 1 : 0) + (size[b]! >= minSize ? 1 : 0);
    size[a]! += size[b]!;
    size[b] = 0;
    large += (size[a]! >= minSize ? 1 : 0) - was;
    out.push(large);
  }
  return out;
}

/**
 * The number of merges whose cut leaves `wanted` large clusters, or as near as any cut comes;
 * among equals, the cut whose last merge is nearest the threshold (pyannote walks the
 * dendrogram outwards from the threshold the same way).
 */
function mergesFor(
  linkage: Linkage,
  m: number,
  minSize: number,
  wanted: number,
  threshold: number,
) {
  const large = largeCounts(linkage, m, minSize);
  let best = 0;
  let bestMiss = Infinity;
  let bestGap = Infinity;
  for (let merges = 0; merges < m; merges++) {
    const miss = Math.abs(large[merges]! - wanted);
    const height = merges === 0 ? -Infinity : linkage.heights[merges - 1]!;
    const gap = Math.abs(height - threshold);
    if (miss < bestMiss || (miss === bestMiss && gap < bestGap)) {
      best = merges;
      bestMiss = miss;
      bestGap = gap;
    }
  }
  return { merges: best, large: large[best]! };
}

/**
 * The speakers' clusters (each of at least the minimum size, bar a file too small for it) and
 * the small clusters left over, which go to their nearest speaker afterwards. Without counts,
 * the merges closer than the threshold are made and the large clusters are the speakers. A
 * count (or a min or max the threshold's cut misses) picks the cut that gives that many large
 * clusters; where no cut gives enough, the largest speakers are halved; only where even that
 * cannot (too few embeddings) is the minimum size lowered, a step at a time, so that `num` is
 * met exactly as the request demands.
 */
function chooseClusters(
  vectors: Float32Array[],
  channels: number[],
  options: ClusteringOptions,
): { speakers: number[][]; small: number[][] } {
  const m = vectors.length;
  const linkage = link(vectors, channels);
  const minSize = Math.max(1, options.minClusterSize ?? 2);
  // Without a count, a cap as pyannote's (a tenth of its embeddings, one a second): here a
  // fifth, windows being embedded about every 10 s, so that a file of under ten embeddings,
  // where a person who says one sentence is in one window, still has them found. A count says
  // how many people there are, so there a stray window never stands for one.
  const autoSize = Math.max(1, Math.min(minSize, Math.floor(m / 5)));
  const byThreshold = linkage.heights.filter((h) => h < options.threshold).length;
  let wanted = options.num;
  let size = autoSize;
  if (wanted === null) {
    const found = largeCounts(linkage, m, autoSize)[byThreshold]!;
    let k = Math.min(found, options.maxSpeakers ?? 20);
    if (options.min !== null) k = Math.max(k, options.min);
    if (options.max !== null) k = Math.min(k, options.max);
    if (k !== found) wanted = k;
  } else {
    size = minSize;
  }
  let merges = byThreshold;
  if (wanted !== null) {
    wanted = Math.max(1, Math.min(wanted, m));
    const choice = mergesFor(linkage, m, size, wanted, options.threshold);
    merges = choice.merges;
    let clusters = cut(linkage, m, m - merges);
    let speakers = clusters.filter((c) => c.length >= size);
    let small = clusters.filter((c) => c.length < size);
    // More speakers asked for than the dendrogram has large clusters (centroid linkage joins
    // the last members of a tight cloud one at a time): the largest speakers are halved.
    while (speakers.length < wanted) {
      const largest = speakers.reduce((a, b) => (b.length > a.length ? b : a), []);
      const parts = largest.length < 2 * size ? [] : halves(vectors, largest);
      if (parts.length < 2 || Math.min(...parts.map((p) => p.length)) < size) break;
      speakers = speakers.filter((c) => c !== largest).concat(parts);
    }
    // A file of too few embeddings for the count: the minimum size gives way, as the count
    // must be met.
    while (speakers.length !== wanted && size > 1) {
      size--;
      merges = mergesFor(linkage, m, size, wanted, options.threshold).merges;
      clusters = cut(linkage, m, m - merges);
      speakers = clusters.filter((c) => c.length >= size);
      small = clusters.filter((c) => c.length < size);
    }
    return { speakers, small };
  }
  const clusters = cut(linkage, m, m - merges);
  const speakers = clusters.filter((c) => c.length >= size);
  // Nothing large enough (a file of a few scattered embeddings): one speaker, as pyannote.
  if (speakers.length === 0) return { speakers: [clusters.flat()], small: [] };
  return { speakers, small: clusters.filter((c) => c.length < size) };
}

/**
 * A cluster split in two around its two members farthest apart (each member to the nearer of
 * them, a few rounds of 2-means), the halves as even as the voice allows.
 */
function halves(vectors: readonly Float32Array[], members: readonly number[]): number[][] {
  const dim = vectors[members[0]!]!.length;
  let a = members[0]!;
  let b = members[1]!;
  let far = -Infinity;
  for (const i of members) {
    for (const j of members) {
      const d = 1 - dot(vectors[i]!, vectors[j]!);
      if (i < j && d > far) [far, a, b] = [d, i, j];
    }
  }
  let centres = [vectors[a]!, vectors[b]!];
  let split: number[][] = [[a], [b]];
  for (let round = 0; round < 10; round++) {
    split = [[], []];
    for (const i of members) {
      split[dot(vectors[i]!, centres[0]!) >= dot(vectors[i]!, centres[1]!) ? 0 : 1]!.push(i);
    }
    if (split[0]!.length === 0 || split[1]!.length === 0) break;
    centres = split.map((h) => centroidOf(vectors, h, dim));
  }
  return split.filter((h) => h.length > 0);
}

/** Each small cluster joined to the speaker whose centroid is nearest its own. */
function absorbSmall(
  vectors: readonly Float32Array[],
  channels: readonly number[],
  chosen: { speakers: number[][]; small: number[][] },
  dim: number,
): number[][] {
  const speakers = chosen.speakers.map((c) => [...c]);
  const centroids = speakers.map((c) => centroidOf(vectors, c, dim));
  const speakerChannels = speakers.map((c) => new Set(c.map((i) => channels[i]!)));
  for (const small of chosen.small) {
    const to = nearest(
      centroidOf(vectors, small, dim),
      channels[small[0]!]!,
      centroids,
      speakerChannels,
    );
    speakers[to]!.push(...small);
  }
  return speakers;
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
  const clusters = absorbSmall(
    vectors,
    vectorChannels,
    chooseClusters(vectors, vectorChannels, options),
    dim,
  );
  // The linked embeddings keep the linkage's speakers; every other one goes to the nearest
  // speaker of its channel. No k-means afterwards: moving embeddings between centroids can
  // drain a speaker down to a stray one, the very thing the minimum size rules out.
  const labels = new Int32Array(n).fill(-1);
  clusters.forEach((members, k) => {
    for (const i of members) labels[picked[i]!] = k;
  });
  const linkedCentroids = clusters.map((members) => centroidOf(vectors, members, dim));
  const linkedChannels = clusters.map((members) => new Set(members.map((i) => vectorChannels[i]!)));
  for (let i = 0; i < n; i++) {
    if (labels[i] === -1) {
      labels[i] = nearest(embeddings[i]!, channels[i]!, linkedCentroids, linkedChannels);
    }
  }
  const members = clusters.map(() => [] as number[]);
  for (let i = 0; i < n; i++) members[labels[i]!]!.push(i);
  return {
    labels,
    centroids: members.map((m) => centroidOf(embeddings, m, dim)),
    channels: members.map((m) => new Set(m.map((i) => channels[i]!))),
  };
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
