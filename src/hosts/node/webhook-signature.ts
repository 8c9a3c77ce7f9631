import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { DeliverySigner } from '../../core/webhook/delivery';

/**
 * Webhook signing as Standard Webhooks (standardwebhooks.com) has it, so that receivers can use
 * any of its libraries: `webhook-id` (one per delivery, the same on every retry, for receivers
 * to drop duplicates), `webhook-timestamp` (seconds, the try's own time) and `webhook-signature`
 * (`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`). The secret is `whsec_` and the
 * base64 of the key; the HMAC key is the decoded bytes, not the text.
 */

const PREFIX = 'whsec_';

/** The HMAC key of a `whsec_` secret; throws with a sentence saying what is wrong with it. */
export function webhookKey(secret: string): Buffer {
  if (!secret.startsWith(PREFIX)) {
    throw new Error('The webhook secret must start with whsec_ followed by base64.');
  }
  const encoded = secret.slice(PREFIX.length);
  const key = Buffer.from(encoded, 'base64');
  // Buffer.from skips characters that are not base64 instead of refusing them.
  if (key.length < 16 || key.toString('base64').replace(/=+$/, '') !== encoded.replace(/=+$/, '')) {
    throw new Error(
      'The webhook secret after whsec_ must be base64 of at least 16 bytes (e.g. whsec_$(openssl rand -base64 32)).',
    );
  }
  return key;
}

/** The `webhook-signature` value of one try. */
export function webhookSignature(key: Buffer, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * Signers for deliveries under one key: each call starts a delivery (a new `webhook-id`); the
 * signer it returns signs each try of that delivery with the try's time.
 */
export function webhookSigner(key: Buffer, now: () => number = Date.now): () => DeliverySigner {
  return () => {
    const id = `msg_${randomUUID()}`;
    return (body) => {
      const timestamp = Math.floor(now() / 1000);
      return {
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': webhookSignature(key, id, timestamp, body),
      };
    };
  };
}

/** The signer for `MURMUR_WEBHOOK_SECRET`, or undefined when it is not set. */
export function signerFromEnv(env: string | undefined): (() => DeliverySigner) | undefined {
  if (env === undefined || env === '') return undefined;
  return webhookSigner(webhookKey(env));
}

/**
 * What a receiver does: true when the headers carry a `v1` signature of `body` under `secret`
 * and the timestamp is within `toleranceSeconds` of now (an old message replayed is refused).
 */
export function verifyWebhook(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  body: string,
  options: { toleranceSeconds?: number; now?: () => number } = {},
): boolean {
  const id = headers['webhook-id'];
  const timestamp = Number(headers['webhook-timestamp']);
  const signatures = headers['webhook-signature'];
  if (typeof id !== 'string' || typeof signatures !== 'string' || !Number.isInteger(timestamp)) {
    return false;
  }
  const now = Math.floor((options.now ?? Date.now)() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(webhookSignature(webhookKey(secret), id, timestamp, body));
  // The header may list several signatures (during a key rotation), separated by spaces.
  return signatures.split(' ').some((given) => {
    const candidate = Buffer.from(given);
    return candidate.length === expected.length && timingSafeEqual(candidate, expected);
  });
}
