import { describe, expect, it } from 'vitest';
import { clock, length } from './time';

describe('times as the page shows them', () => {
  it('reads a position down to its second, and a length to the nearest, as the player does', () => {
    expect(clock(11.98)).toBe('0:11');
    expect(length(11.98)).toBe('0:12');
    expect(length(11.4)).toBe('0:11');
    expect(length(3599.6)).toBe('1:00:00');
  });
});
