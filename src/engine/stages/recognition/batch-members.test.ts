import { describe, expect, it } from 'vitest';
import { BatchMembers } from './batch-members';

describe('the rows of a batch decode', () => {
  it('start as the windows given, in order', () => {
    expect(new BatchMembers(4).windows).toEqual([0, 1, 2, 3]);
  });

  it('lose the rows of windows that ended, and say which rows of the batch before stay', () => {
    const members = new BatchMembers(5);
    expect(members.leave(new Set([1, 3]))).toEqual([0, 2, 4]);
    expect(members.windows).toEqual([0, 2, 4]);
    // Rows are counted in the smaller batch now: window 4 is its row 2.
    expect(members.leave(new Set([4]))).toEqual([0, 1]);
    expect(members.windows).toEqual([0, 2]);
    expect(members.leave(new Set())).toEqual([0, 1]);
    expect(members.leave(new Set([0, 2]))).toEqual([]);
    expect(members.windows).toEqual([]);
  });

  it('keep a window that has left out of the batch when it is named again', () => {
    const members = new BatchMembers(3);
    members.leave(new Set([0]));
    expect(members.leave(new Set([0]))).toEqual([0, 1]);
    expect(members.windows).toEqual([1, 2]);
  });
});
