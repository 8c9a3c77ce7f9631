import type { StateCreator } from 'zustand';
import type { DeliveryEvent } from '../../core/webhook/delivery';
import type { AppState } from './app-store';

/** Where the delivery of the current result to its webhook stands (null: no webhook). */
export type WebhookDelivery = DeliveryEvent & { url: string };

export interface WebhookSlice {
  webhook: WebhookDelivery | null;
}

export const createWebhookSlice: StateCreator<AppState, [], [], WebhookSlice> = () => ({
  webhook: null,
});
