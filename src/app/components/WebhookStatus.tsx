import type { WebhookDelivery } from '../store/webhook-slice';
import { useAppStore } from '../store/app-store';

function describe(delivery: WebhookDelivery): { title: string; detail: string | null } {
  switch (delivery.kind) {
    case 'sending':
      return {
        title: `Sending the result to the webhook (try ${delivery.attempt} of ${delivery.tries})`,
        detail: null,
      };
    case 'retrying':
      return {
        title: `Try ${delivery.attempt} of ${delivery.tries} failed; trying again in ${Math.round(delivery.pauseMs / 1000)} s`,
        detail: delivery.reason,
      };
    case 'delivered':
      return {
        title: `Delivered to the webhook (answer ${delivery.status})`,
        detail: null,
      };
    case 'failed':
      return {
        title: `Not delivered to the webhook after ${delivery.attempt} tr${delivery.attempt === 1 ? 'y' : 'ies'}`,
        detail: `${delivery.reason} The transcript itself is complete and can be downloaded here.`,
      };
  }
}

const TONES: Record<WebhookDelivery['kind'], string> = {
  sending: 'border-slate-200 bg-slate-50 text-slate-800',
  retrying: 'border-amber-200 bg-amber-50 text-amber-900',
  delivered: 'border-emerald-200 bg-emerald-50 text-emerald-900',
  failed: 'border-rose-200 bg-rose-50 text-rose-900',
};

/** What became of sending the result to the webhook the user gave. */
export function WebhookStatus() {
  const delivery = useAppStore((s) => s.webhook);
  if (delivery === null) return null;
  const { title, detail } = describe(delivery);
  return (
    <div
      role="status"
      data-testid="result.webhook"
      data-state={delivery.kind}
      className={`rounded-xl border p-3 text-sm ${TONES[delivery.kind]}`}
    >
      <p className="font-medium">{title}</p>
      <p className="mt-0.5 break-all text-xs opacity-80">{delivery.url}</p>
      {detail && <p className="mt-1 text-xs">{detail}</p>}
    </div>
  );
}
