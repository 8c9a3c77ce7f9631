import { afterEach, describe, expect, it } from 'vitest';
import { deliverWebhook } from '../../core/webhook/delivery';
import { startReceiver } from '../../../tools/testing/server/receiver';
import { nodeDeliveryFetch, publicDeliveryFetch } from './webhook-fetch';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

describe('webhook delivery from Node', () => {
  const open: Receiver[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((r) => r.close()));
  });

  it("does not follow a receiver's redirect: the body goes nowhere else, and the 307 is final", async () => {
    const elsewhere = await startReceiver();
    const redirecting = await startReceiver({ redirectTo: elsewhere.url });
    open.push(elsewhere, redirecting);
    const outcome = await deliverWebhook(
      redirecting.url,
      { secret: 'signed result' },
      {
        fetch: nodeDeliveryFetch,
        sign: () => ({ 'webhook-signature': 'v1,abc' }),
        policy: { tries: 3, timeoutMs: 5000, firstPauseMs: 1, backoffFactor: 1 },
      },
    );
    expect(outcome).toEqual({
      url: redirecting.url,
      delivered: false,
      attempts: 1,
      status: 307,
      reason: 'The receiver answered 307 Temporary Redirect (a refusal: not tried again).',
    });
    expect(redirecting.received).toHaveLength(1);
    expect(elsewhere.received).toEqual([]);
  });

  it('tries a receiver whose name leads to a private address once: no later try is let through', async () => {
    const receiver = await startReceiver();
    open.push(receiver);
    const pauses: number[] = [];
    const outcome = await deliverWebhook(
      receiver.url.replace('127.0.0.1', 'localhost'),
      { result: 1 },
      { fetch: publicDeliveryFetch, sleep: async (ms) => void pauses.push(ms) },
    );
    expect(outcome).toMatchObject({ delivered: false, attempts: 1 });
    expect(outcome.reason).toMatch(/not a public one/);
    expect(pauses).toEqual([]);
  });
});
