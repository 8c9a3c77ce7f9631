/**
 * Word timing from cross-attention: the alignment heads' attention over encoder frames,
 * normalised per frame across tokens, smoothed along time with a median filter, averaged
 * over heads, then aligned to time by dynamic time warping. This is how Whisper derives
 * word timestamps; the frames are 0.02 s apart.
 */

/** weights[head][token][frame] -> matrix[token][frame]. */
export function alignmentMatrix(
  weights: readonly (readonly Float32Array[])[],
  frames: number,
  medianWidth: number,
): Float32Array[] {
  const heads = weights.length;
  const tokens = weights[0]?.length ?? 0;
  const matrix = Array.from({ length: tokens }, () => new Float32Array(frames));
  for (const head of weights) {
    const rows = head.map((row) => row.slice(0, frames));
    for (let f = 0; f < frames; f++) {
      let mean = 0;
      for (const row of rows) mean += row[f]!;
      mean /= tokens;
      let variance = 0;
      for (const row of rows) variance += (row[f]! - mean) ** 2;
      const std = Math.sqrt(variance / tokens) || 1;
      for (const row of rows) row[f] = (row[f]! - mean) / std;
    }
    rows.forEach((row, t) => {
      const smooth = medianFilter(row, medianWidth);
      const out = matrix[t]!;
      for (let f = 0; f < frames; f++) out[f] = out[f]! + smooth[f]! / heads;
    });
  }
  return matrix;
}

/** Median of a sliding window, the edges mirrored (as scipy's `reflect`). */
export function medianFilter(data: Float32Array, width: number): Float32Array {
  const half = Math.floor(width / 2);
  const out = new Float32Array(data.length);
  if (data.length === 0) return out;
  const window: number[] = [];
  for (let i = 0; i < data.length; i++) {
    window.length = 0;
    for (let k = -half; k <= half; k++) {
      let j = i + k;
      if (j < 0) j = -j - 1;
      if (j >= data.length) j = 2 * data.length - j - 1;
      window.push(data[Math.min(Math.max(j, 0), data.length - 1)]!);
    }
    window.sort((a, b) => a - b);
    out[i] = window[half]!;
  }
  return out;
}

/**
 * Dynamic time warping over a cost matrix [tokens][frames] (cost = -similarity): the path of
 * least total cost from (0,0) to (T-1,F-1). Returns for each token the first frame where the
 * path enters it.
 */
export function tokenStartFrames(similarity: readonly Float32Array[]): number[] {
  const T = similarity.length;
  const F = similarity[0]?.length ?? 0;
  if (T === 0 || F === 0) return [];
  const cost = new Float64Array((T + 1) * (F + 1)).fill(Infinity);
  const trace = new Uint8Array((T + 1) * (F + 1));
  const at = (t: number, f: number) => t * (F + 1) + f;
  cost[at(0, 0)] = 0;
  for (let f = 1; f <= F; f++) {
    for (let t = 1; t <= T; t++) {
      const diagonal = cost[at(t - 1, f - 1)]!;
      const up = cost[at(t - 1, f)]!;
      const left = cost[at(t, f - 1)]!;
      let best = diagonal;
      let move = 0;
      if (up < best) {
        best = up;
        move = 1;
      }
      if (left < best) {
        best = left;
        move = 2;
      }
      cost[at(t, f)] = -similarity[t - 1]![f - 1]! + best;
      trace[at(t, f)] = move;
    }
  }
  const starts = new Array<number>(T).fill(0);
  let t = T;
  let f = F;
  while (t > 0 && f > 0) {
    starts[t - 1] = f - 1;
    const move = trace[at(t, f)];
    if (move === 0) {
      t--;
      f--;
    } else if (move === 1) t--;
    else f--;
  }
  return starts;
}
