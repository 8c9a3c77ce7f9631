import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { DeliveryFetch } from '../../core/webhook/delivery';
import { isPrivateLiteral, PrivateAddressError, publicLookup } from './address-guard';

/**
 * Node's fetch for webhook delivery (the CLI's, and the service's with `--allow-private-urls`).
 * A redirect is not followed, as with the guard on: it counts as the receiver's answer (a
 * refusal), since following it would POST the signed result to an address nobody gave. The
 * receiver's answer body is not read, but it is cancelled so that the connection goes back to
 * the pool at once.
 */
export const nodeDeliveryFetch: DeliveryFetch = async (url, init) => {
  const answer = await fetch(url, { ...init, redirect: 'manual' });
  await answer.body?.cancel();
  return { status: answer.status, statusText: answer.statusText };
};

/**
 * Delivery to public addresses only (the HTTP service's default): the receiver's name is
 * resolved and checked before the connection is made (`publicLookup`), an IP literal is checked
 * as it is, and a redirect is not followed (it would lead anywhere): it counts as the answer.
 */
export const publicDeliveryFetch: DeliveryFetch = (url, init) =>
  new Promise((resolve, reject) => {
    const target = new URL(url);
    if (isPrivateLiteral(target)) return reject(new PrivateAddressError());
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(target, {
      method: init.method,
      headers: { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) },
      signal: init.signal,
      lookup: publicLookup as never,
    });
    request.on('response', (answer) => {
      answer.resume();
      resolve({ status: answer.statusCode ?? 0, statusText: answer.statusMessage ?? '' });
    });
    request.on('error', reject);
    request.end(init.body);
  });
