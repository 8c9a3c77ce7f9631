import { describe, expect, it } from 'vitest';
import { UploadBudget } from './upload-budget';

describe('UploadBudget', () => {
  it('counts the bytes of the uploads being read, and gives them back at their end', () => {
    const budget = new UploadBudget(1000);
    const a = budget.open();
    const b = budget.open();
    expect(a.take(400)).toBeNull();
    expect(b.take(500)).toBeNull();
    expect(budget.load).toEqual({ reading: 2, bytes: 900 });
    a.close();
    a.close();
    expect(budget.load).toEqual({ reading: 1, bytes: 500 });
    b.close();
    expect(budget.load).toEqual({ reading: 0, bytes: 0 });
  });

  it('refuses with 429 the bytes that do not fit, counting none of them', () => {
    const budget = new UploadBudget(3 * 1024 * 1024);
    const a = budget.open();
    expect(a.take(3 * 1024 * 1024 - 10)).toBeNull();
    const refused = budget.open().take(11);
    expect(refused?.status).toBe(429);
    expect(refused?.message).toBe(
      'The service is busy receiving other uploads (3 MB at most at once); send the request again in a moment.',
    );
    expect(budget.load.bytes).toBe(3 * 1024 * 1024 - 10);
  });

  it('costs a slow upload only what it has sent', () => {
    const budget = new UploadBudget(1000);
    const slow = Array.from({ length: 50 }, () => budget.open());
    for (const share of slow) expect(share.take(2)).toBeNull();
    const fast = budget.open();
    expect(fast.take(900)).toBeNull();
    expect(budget.load).toEqual({ reading: 51, bytes: 1000 });
  });
});
