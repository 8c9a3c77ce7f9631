/** A typed array of a tensor's values (the batch is its first dimension). */
export type RowData = Float32Array | Uint16Array | BigInt64Array;

/** Values per row of a batch-first tensor of `dims`. */
export function rowSize(dims: readonly number[]): number {
  return dims.slice(1).reduce((a, b) => a * b, 1);
}

/**
 * The rows `kept` (indices into the batch, in that order) of a batch-first tensor's values:
 * a sequence that has ended leaves the batch, and its keys and values with it.
 */
export function keptRows<T extends RowData>(
  data: T,
  dims: readonly number[],
  kept: readonly number[],
): { data: T; dims: number[] } {
  const size = rowSize(dims);
  const batch = dims[0] ?? 0;
  if (data.length !== batch * size)
    throw new Error(`A tensor of ${data.length} values is not ${batch} rows of ${size}.`);
  const out = new (data.constructor as new (length: number) => T)(kept.length * size);
  kept.forEach((row, i) => {
    if (row < 0 || row >= batch) throw new Error(`No row ${row} in a batch of ${batch}.`);
    out.set(data.subarray(row * size, (row + 1) * size) as never, i * size);
  });
  return { data: out, dims: [kept.length, ...dims.slice(1)] };
}

/** Batch-first values of one row each, stacked into one batch (each of shape [1, ...rest]). */
export function stackedRows<T extends RowData>(
  rows: readonly T[],
  dims: readonly number[],
): { data: T; dims: number[] } {
  const size = rowSize(dims);
  const first = rows[0];
  if (!first) throw new Error('No rows to stack.');
  const out = new (first.constructor as new (length: number) => T)(rows.length * size);
  rows.forEach((row, i) => {
    if (row.length !== size) throw new Error(`A row of ${row.length} values is not ${size}.`);
    out.set(row as never, i * size);
  });
  return { data: out, dims: [rows.length, ...dims.slice(1)] };
}
