import type { TranscriptionResponse } from '../contract/response';

/**
 * What a webhook receives: the request's id and the same response the caller gets, as the
 * original service sent it (receivers read `payload.prediction`).
 */
export interface WebhookPayload {
  request_id: string;
  payload: TranscriptionResponse;
}

export function webhookPayload(requestId: string, response: TranscriptionResponse): WebhookPayload {
  return { request_id: requestId, payload: response };
}
