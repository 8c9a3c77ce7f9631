/**
 * The best one-to-one pairing of rows with columns of a weight matrix (the Hungarian method,
 * Kuhn-Munkres, in its O(n^2 m) shortest-augmenting-path form). Scoring a diarization maps
 * reference speakers to hypothesis speakers this way.
 */

/**
 * The pairs `[row, column]` whose weights add up to the most, each row and each column used at
 * most once: min(rows, columns) pairs, ordered by row. Weights may be any finite numbers; a
 * ragged matrix is read as if missing cells were 0.
 */
export function bestAssignment(weights: readonly (readonly number[])[]): Array<[number, number]> {
  const rows = weights.length;
  const cols = rows === 0 ? 0 : Math.max(...weights.map((row) => row.length));
  if (rows === 0 || cols === 0) return [];
  for (const row of weights) {
    for (const w of row) {
      if (!Number.isFinite(w)) throw new RangeError(`bestAssignment: weight ${w} is not finite`);
    }
  }
  // The solver below minimises cost and wants no more rows than columns: turn the matrix so
  // that rows are the smaller side, and negate the weights.
  const transposed = rows > cols;
  const n = transposed ? cols : rows;
  const m = transposed ? rows : cols;
  const cost = (i: number, j: number): number =>
    -((transposed ? weights[j]![i] : weights[i]![j]) ?? 0);

  // Potentials u (rows) and v (columns), 1-based with column 0 as the free start; match[j] is
  // the row given column j.
  const u = new Float64Array(n + 1);
  const v = new Float64Array(m + 1);
  const match = new Int32Array(m + 1);
  const way = new Int32Array(m + 1);
  for (let i = 1; i <= n; i++) {
    match[0] = i;
    let j0 = 0;
    const minv = new Float64Array(m + 1).fill(Infinity);
    const used = new Uint8Array(m + 1);
    do {
      used[j0] = 1;
      const i0 = match[j0]!;
      let delta = Infinity;
      let j1 = 0;
      for (let j = 1; j <= m; j++) {
        if (used[j]) continue;
        const reduced = cost(i0 - 1, j - 1) - u[i0]! - v[j]!;
        if (reduced < minv[j]!) {
          minv[j] = reduced;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      for (let j = 0; j <= m; j++) {
        if (used[j]) {
          u[match[j]!]! += delta;
          v[j]! -= delta;
        } else {
          minv[j]! -= delta;
        }
      }
      j0 = j1;
    } while (match[j0] !== 0);
    // Flip the augmenting path back to its start.
    do {
      const j1 = way[j0]!;
      match[j0] = match[j1]!;
      j0 = j1;
    } while (j0 !== 0);
  }

  const pairs: Array<[number, number]> = [];
  for (let j = 1; j <= m; j++) {
    const i = match[j]!;
    if (i === 0) continue;
    pairs.push(transposed ? [j - 1, i - 1] : [i - 1, j - 1]);
  }
  return pairs.sort((a, b) => a[0] - b[0]);
}
