import { newRequestId } from '../../core/contract/errors';
import type { TranscriptionResponse } from '../../core/contract/response';
import { deliverWebhook } from '../../core/webhook/delivery';
import { webhookPayload } from '../../core/webhook/payload';
import { useAppStore } from './app-store';

/**
 * A browser cannot tell a receiver that is down from one that refused the page: both end in
 * the same network error. The explanation names both, and what a receiver must answer to the
 * CORS preflight that a JSON POST from another origin brings.
 */
function browserNetworkFailure(url: string): string {
  const { host } = new URL(url);
  const origin = globalThis.location?.origin ?? 'this page';
  return `The browser could not deliver to ${host}: it either cannot be reached, or it refused this page. A browser first asks the receiver's permission (a CORS preflight, OPTIONS ${url}); the receiver must answer it with Access-Control-Allow-Origin: ${origin} (or *) and Access-Control-Allow-Headers: content-type.`;
}

let current = 0;

/**
 * POSTs a finished result to its webhook from the page, as the service does from a server, and
 * keeps the store told of each try. A newer result's delivery replaces an older one's status.
 */
export async function deliverResult(url: string, response: TranscriptionResponse): Promise<void> {
  const delivery = ++current;
  await deliverWebhook(url, webhookPayload(newRequestId(), response), {
    fetch: (target, init) => fetch(target, init),
    explainNetworkFailure: browserNetworkFailure,
    onEvent: (event) => {
      if (delivery === current) useAppStore.setState({ webhook: { ...event, url } });
    },
  });
}

/** Forgets the status of an earlier delivery (a new transcription starts). */
export function forgetDelivery(): void {
  current++;
  useAppStore.setState({ webhook: null });
}
