import { describe, expect, it } from 'vitest';
import { keptRows, rowSize, stackedRows } from './batch-rows';

/** Keys of a batch of 3 rows, 2 heads, 2 positions, 2 values: each value says where it is. */
const dims = [3, 2, 2, 2];
const values = Float32Array.from({ length: 24 }, (_, i) => i);

describe('rows of a batch-first tensor', () => {
  it('are the values after the batch dimension', () => {
    expect(rowSize(dims)).toBe(8);
    expect(rowSize([5])).toBe(1);
  });

  it('are cut out whole, in the order asked, the batch dimension shrinking', () => {
    const { data, dims: kept } = keptRows(values, dims, [2, 0]);
    expect(kept).toEqual([2, 2, 2, 2]);
    expect([...data]).toEqual([16, 17, 18, 19, 20, 21, 22, 23, 0, 1, 2, 3, 4, 5, 6, 7]);
    expect(data).toBeInstanceOf(Float32Array);
  });

  it('keep their type (half precision, token ids)', () => {
    const halves = Uint16Array.from([1, 2, 3, 4]);
    expect(keptRows(halves, [2, 2], [1]).data).toEqual(Uint16Array.from([3, 4]));
    const ids = BigInt64Array.from([7n, 8n, 9n]);
    expect(keptRows(ids, [3, 1], [0, 2]).data).toEqual(BigInt64Array.from([7n, 9n]));
  });

  it('may all leave: no rows, no values', () => {
    const { data, dims: kept } = keptRows(values, dims, []);
    expect(kept).toEqual([0, 2, 2, 2]);
    expect(data.length).toBe(0);
  });

  it('are refused where the tensor is not the rows it claims, or a row is not in it', () => {
    expect(() => keptRows(values, [4, 2, 2, 2], [0])).toThrow(
      'A tensor of 24 values is not 4 rows of 8.',
    );
    expect(() => keptRows(values, dims, [3])).toThrow('No row 3 in a batch of 3.');
  });

  it('of one each stack into one batch, and come apart again', () => {
    const a = Float32Array.from([1, 2, 3, 4]);
    const b = Float32Array.from([5, 6, 7, 8]);
    const stacked = stackedRows([a, b], [1, 2, 2]);
    expect(stacked.dims).toEqual([2, 2, 2]);
    expect([...stacked.data]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect([...keptRows(stacked.data, stacked.dims, [1]).data]).toEqual([5, 6, 7, 8]);
    expect(() => stackedRows([a, Float32Array.from([1])], [1, 2, 2])).toThrow(
      'A row of 1 values is not 4.',
    );
  });
});
