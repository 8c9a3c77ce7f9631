import { describe, expect, it } from 'vitest';
import {
  deliverWebhook,
  pauseBefore,
  type DeliveryAnswer,
  type DeliveryEvent,
  type DeliveryPolicy,
} from './delivery';

const policy: DeliveryPolicy = { tries: 3, timeoutMs: 200, firstPauseMs: 10, backoffFactor: 3 };
const URL_ = 'https://hooks.example.com/t';

/** A receiver that answers each try from a script: a status, 'down' (no answer) or 'hang'. */
function scripted(script: (number | 'down' | 'hang')[]) {
  const bodies: string[] = [];
  const fetch = async (
    _url: string,
    init: { body: string; signal: AbortSignal },
  ): Promise<DeliveryAnswer> => {
    bodies.push(init.body);
    const step = script[Math.min(bodies.length - 1, script.length - 1)]!;
    if (step === 'down') throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
    if (step === 'hang') {
      return new Promise((_, reject) =>
        init.signal.addEventListener('abort', () => reject(init.signal.reason as Error)),
      );
    }
    return { status: step, statusText: step >= 500 ? 'Server Error' : 'OK' };
  };
  return { fetch, bodies };
}

async function run(script: (number | 'down' | 'hang')[], signal?: AbortSignal) {
  const receiver = scripted(script);
  const events: DeliveryEvent[] = [];
  const pauses: number[] = [];
  const outcome = await deliverWebhook(
    URL_,
    { request_id: 'M-00000000', payload: { prediction: 'x' } },
    {
      fetch: receiver.fetch,
      policy,
      ...(signal ? { signal } : {}),
      onEvent: (e) => events.push(e),
      sleep: async (ms) => void pauses.push(ms),
    },
  );
  return { outcome, events, pauses, bodies: receiver.bodies };
}

describe('deliverWebhook', () => {
  it('delivers on the first 2xx and sends the body as JSON', async () => {
    const { outcome, bodies, events } = await run([204]);
    expect(outcome).toEqual({ url: URL_, delivered: true, attempts: 1, status: 204, reason: null });
    expect(JSON.parse(bodies[0]!)).toEqual({
      request_id: 'M-00000000',
      payload: { prediction: 'x' },
    });
    expect(events.map((e) => e.kind)).toEqual(['sending', 'delivered']);
  });

  it('tries again after 5xx and network failures, with growing pauses', async () => {
    const { outcome, pauses, bodies } = await run([503, 'down', 200]);
    expect(outcome.delivered).toBe(true);
    expect(outcome.attempts).toBe(3);
    expect(pauses).toEqual([10, 30]);
    expect(new Set(bodies).size).toBe(1);
  });

  it('gives up after the last try and says why', async () => {
    const { outcome, events } = await run(['down']);
    expect(outcome.delivered).toBe(false);
    expect(outcome.attempts).toBe(3);
    expect(outcome.status).toBeNull();
    expect(outcome.reason).toMatch(/hooks\.example\.com could not be reached.*ECONNREFUSED/);
    expect(events.filter((e) => e.kind === 'retrying')).toHaveLength(2);
    expect(events.at(-1)?.kind).toBe('failed');
  });

  it('does not try again after a 4xx refusal', async () => {
    const { outcome, bodies } = await run([404]);
    expect(bodies).toHaveLength(1);
    expect(outcome).toMatchObject({ delivered: false, attempts: 1, status: 404 });
    expect(outcome.reason).toMatch(/404.*not tried again/);
  });

  it('tries again after 429', async () => {
    const { outcome } = await run([429, 201]);
    expect(outcome).toMatchObject({ delivered: true, attempts: 2, status: 201 });
  });

  it('ends a try that gets no answer in time', async () => {
    const { outcome } = await run(['hang', 'hang', 200]);
    expect(outcome).toMatchObject({ delivered: true, attempts: 3 });
    const failed = await run(['hang']);
    expect(failed.outcome.reason).toBe('No answer within 0.2 s.');
  });

  it('stops when cancelled', async () => {
    const controller = new AbortController();
    controller.abort(new DOMException('gone', 'AbortError'));
    await expect(run([200], controller.signal)).rejects.toThrow('gone');
  });

  it('grows the pause by the factor', () => {
    expect([1, 2, 3].map((a) => pauseBefore(policy, a))).toEqual([10, 30, 90]);
  });
});
