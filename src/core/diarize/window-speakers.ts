/**
 * Local speakers of each window given to speakers of the whole file: each local speaker that
 * has an embedding goes to a cluster, two local speakers of one window never to the same one
 * (they were told apart there) unless the window has more of them than there are clusters.
 */
import { LOCAL_SPEAKERS } from './local-speakers';
import { similarity } from './clustering';

/** One window's segmentation on the channel's frame grid. */
export interface WindowSpeakers {
  channel: number;
  /** The window's first frame on the channel's grid. */
  firstFrame: number;
  /** Frames of the window inside the channel (a last window padded past the end has fewer). */
  frames: number;
  /** `frames * LOCAL_SPEAKERS` activity, 0 or 1. */
  active: Uint8Array;
  /** Per local speaker: its embedding (unit length), or null (silent or too short). */
  embeddings: (Float32Array | null)[];
}

/** Clusters per local speaker (-1: not given one), best total similarity under the rule above. */
export function assignLocalSpeakers(
  embeddings: readonly (Float32Array | null)[],
  centroids: readonly Float32Array[],
  allowed: readonly boolean[],
): number[] {
  const locals = embeddings.flatMap((e, i) => (e ? [i] : []));
  const clusters = centroids.flatMap((_, c) => (allowed[c] ? [c] : []));
  return bestChoice(embeddings.length, locals, clusters, (l, c) =>
    similarity(embeddings[l]!, centroids[c]!),
  );
}

/**
 * Clusters per local speaker of a window that has no embeddings of its own, from its
 * neighbours that have: every frame of a window half a window from each of its neighbours is
 * seen by one of them too, and a local speaker is taken for the cluster whose speakers the
 * neighbours hear in the same frames most often.
 */
export function assignByNeighbours(
  window: WindowSpeakers,
  neighbours: readonly { window: WindowSpeakers; clusters: readonly number[] }[],
  clusterCount: number,
): number[] {
  const together = Array.from({ length: LOCAL_SPEAKERS }, () => new Float64Array(clusterCount));
  const at = (w: WindowSpeakers, f: number, s: number) => w.active[f * LOCAL_SPEAKERS + s] === 1;
  for (const n of neighbours) {
    const from = Math.max(window.firstFrame, n.window.firstFrame);
    const to = Math.min(window.firstFrame + window.frames, n.window.firstFrame + n.window.frames);
    for (let g = from; g < to; g++) {
      const f = g - window.firstFrame;
      const fn = g - n.window.firstFrame;
      for (let l = 0; l < LOCAL_SPEAKERS; l++) {
        if (!at(window, f, l)) continue;
        for (let m = 0; m < LOCAL_SPEAKERS; m++) {
          const c = n.clusters[m] ?? -1;
          if (c >= 0 && at(n.window, fn, m)) together[l]![c]!++;
        }
      }
    }
  }
  const locals = [0, 1, 2].filter((l) => together[l]!.some((x) => x > 0));
  const clusters = Array.from({ length: clusterCount }, (_, c) => c).filter((c) =>
    locals.some((l) => together[l]![c]! > 0),
  );
  const out = bestChoice(LOCAL_SPEAKERS, locals, clusters, (l, c) => together[l]![c]!);
  // A local speaker heard with nobody the neighbours gave a cluster stays without one.
  return out.map((c, l) => (c >= 0 && together[l]![c]! > 0 ? c : -1));
}

/**
 * The choice of a cluster per local speaker with the best total score: every injective choice
 * (at most three local speakers); each its own best where there are fewer clusters than them.
 */
function bestChoice(
  size: number,
  locals: readonly number[],
  clusters: readonly number[],
  score: (local: number, cluster: number) => number,
): number[] {
  const out = new Array<number>(size).fill(-1);
  if (clusters.length === 0) return out;
  if (locals.length > clusters.length) {
    for (const l of locals) {
      out[l] = clusters.reduce((b, c) => (score(l, c) > score(l, b) ? c : b), clusters[0]!);
    }
    return out;
  }
  let best = -Infinity;
  const choice: number[] = [];
  const used = new Set<number>();
  const search = (i: number, total: number) => {
    if (i === locals.length) {
      if (total > best) {
        best = total;
        locals.forEach((l, j) => (out[l] = choice[j]!));
      }
      return;
    }
    for (const c of clusters) {
      if (used.has(c)) continue;
      used.add(c);
      choice[i] = c;
      search(i + 1, total + score(locals[i]!, c));
      used.delete(c);
    }
  };
  search(0, 0);
  return out;
}

export interface Turn {
  /** Cluster index. */
  cluster: number;
  channel: number;
  start: number;
  end: number;
}

/**
 * Speaker turns of one channel from its windows, overlap-aware (pyannote's reconstruction):
 * every frame gets as many speakers as the windows covering it count on average, those whose
 * clusters the covering windows found active most often.
 */
export function reconstructTurns(options: {
  channel: number;
  totalFrames: number;
  windows: readonly WindowSpeakers[];
  /** Cluster per local speaker, per window (as `assignLocalSpeakers` gives). */
  clusterOf: readonly (readonly number[])[];
  clusters: number;
  /** Seconds of frame `g`'s middle is `g * frameSeconds + centreSeconds`. */
  frameSeconds: number;
  centreSeconds: number;
}): Turn[] {
  const { totalFrames: total, windows, clusters } = options;
  const coverage = new Uint16Array(total);
  const count = new Uint16Array(total);
  const votes = Array.from({ length: clusters }, () => null as Uint16Array | null);
  windows.forEach((w, wi) => {
    const map = options.clusterOf[wi]!;
    for (let f = 0; f < w.frames; f++) {
      const g = w.firstFrame + f;
      if (g >= total) break;
      coverage[g]!++;
      for (let l = 0; l < LOCAL_SPEAKERS; l++) {
        if (w.active[f * LOCAL_SPEAKERS + l] !== 1) continue;
        count[g]!++;
        const c = map[l] ?? -1;
        if (c < 0) continue;
        const v = (votes[c] ??= new Uint16Array(total));
        v[g]!++;
      }
    }
  });
  const present = votes.flatMap((v, c) => (v ? [c] : []));
  const on = present.map(() => new Uint8Array(total));
  const order = present.map((_, i) => i);
  for (let g = 0; g < total; g++) {
    if (coverage[g] === 0) continue;
    const speakers = Math.round(count[g]! / coverage[g]!);
    if (speakers === 0) continue;
    order.sort((a, b) => votes[present[b]!]![g]! - votes[present[a]!]![g]!);
    for (let i = 0; i < Math.min(speakers, order.length); i++) {
      const idx = order[i]!;
      if (votes[present[idx]!]![g]! > 0) on[idx]![g] = 1;
    }
  }
  const turns: Turn[] = [];
  const half = options.frameSeconds / 2;
  present.forEach((cluster, idx) => {
    const row = on[idx]!;
    let from = -1;
    for (let g = 0; g <= total; g++) {
      const is = g < total && row[g] === 1;
      if (is && from < 0) from = g;
      if (!is && from >= 0) {
        turns.push({
          cluster,
          channel: options.channel,
          start: Math.max(0, from * options.frameSeconds + options.centreSeconds - half),
          end: (g - 1) * options.frameSeconds + options.centreSeconds + half,
        });
        from = -1;
      }
    }
  });
  return turns.sort((a, b) => a.start - b.start || a.cluster - b.cluster);
}
