import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, webhookKey, webhookSignature, webhookSigner } from './webhook-signature';

// The example of the Standard Webhooks specification (its reference libraries' test vector).
const SPEC_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const SPEC_ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const SPEC_TIMESTAMP = 1614265330;
const SPEC_BODY = '{"test": 2432232314}';
const SPEC_SIGNATURE = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';

describe('webhook signatures (Standard Webhooks)', () => {
  it('signs id.timestamp.body with the decoded key, as the specification example does', () => {
    const key = webhookKey(SPEC_SECRET);
    expect(webhookSignature(key, SPEC_ID, SPEC_TIMESTAMP, SPEC_BODY)).toBe(SPEC_SIGNATURE);
    // The text of the secret is not the key.
    const wrong = createHmac('sha256', SPEC_SECRET)
      .update(`${SPEC_ID}.${SPEC_TIMESTAMP}.${SPEC_BODY}`)
      .digest('base64');
    expect(SPEC_SIGNATURE).not.toBe(`v1,${wrong}`);
  });

  it('keeps one webhook-id for every try of a delivery, and a new one per delivery', () => {
    let now = 1_700_000_000_000;
    const signers = webhookSigner(webhookKey(SPEC_SECRET), () => now);
    const delivery = signers();
    const first = delivery('{"a":1}');
    now += 4_000;
    const retry = delivery('{"a":1}');
    expect(retry['webhook-id']).toBe(first['webhook-id']);
    expect(first['webhook-id']).toMatch(/^msg_/);
    expect(Number(retry['webhook-timestamp'])).toBe(Number(first['webhook-timestamp']) + 4);
    expect(signers()('{"a":1}')['webhook-id']).not.toBe(first['webhook-id']);
  });

  it('verifies a signed body and refuses a tampered one, an old one and another key', () => {
    const now = () => SPEC_TIMESTAMP * 1000;
    const headers = {
      'webhook-id': SPEC_ID,
      'webhook-timestamp': String(SPEC_TIMESTAMP),
      'webhook-signature': `v1,bm90IGl0 ${SPEC_SIGNATURE}`,
    };
    expect(verifyWebhook(SPEC_SECRET, headers, SPEC_BODY, { now })).toBe(true);
    expect(verifyWebhook(SPEC_SECRET, headers, '{"test": 2432232315}', { now })).toBe(false);
    const later = () => (SPEC_TIMESTAMP + 301) * 1000;
    expect(verifyWebhook(SPEC_SECRET, headers, SPEC_BODY, { now: later })).toBe(false);
    const other = `whsec_${Buffer.alloc(24, 7).toString('base64')}`;
    expect(verifyWebhook(other, headers, SPEC_BODY, { now })).toBe(false);
  });

  it('refuses a secret without whsec_ or whose key is not base64', () => {
    expect(() => webhookKey('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')).toThrow(/whsec_/);
    expect(() => webhookKey('whsec_not base64!')).toThrow(/base64/);
    expect(() => webhookKey('whsec_c2hvcnQ=')).toThrow(/at least 16 bytes/);
  });
});
