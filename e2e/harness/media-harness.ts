import { startWorker } from '../../src/worker/page-policy-worker';
import type { HarnessReply, HarnessRequest, HarnessSummary } from './media-protocol';
import mediaWorker from './media.worker.ts?worker&url';

/**
 * The browser tests' handle on the media and speech stages: it runs them with the browser
 * host's ports in a module worker, as the app's worker does, and answers with a summary.
 */
// Started as the app starts its workers: under the page's policy (media links to any host).
const worker = startWorker(mediaWorker);
const pending = new Map<number, (reply: HarnessReply) => void>();
let nextId = 1;
worker.onmessage = (event: MessageEvent<HarnessReply>) => {
  pending.get(event.data.id)?.(event.data);
  pending.delete(event.data.id);
};

export interface HarnessOptions {
  url?: string;
  endpoint?: 'audio' | 'video';
  toggleNoiseReduction?: boolean;
  windowSeconds?: number;
  compactFromSeconds?: number;
  spill?: boolean;
}

function prepare(options: HarnessOptions = {}): Promise<HarnessReply> {
  const input = document.querySelector<HTMLInputElement>('[data-testid="harness.file"]');
  const file = options.url ? null : (input?.files?.[0] ?? null);
  const message: HarnessRequest = {
    id: nextId++,
    type: 'prepare',
    data: {
      file,
      url: options.url ?? null,
      endpoint: options.endpoint ?? 'audio',
      toggleNoiseReduction: options.toggleNoiseReduction ?? false,
      windowSeconds: options.windowSeconds ?? null,
      compactFromSeconds: options.compactFromSeconds ?? null,
      spill: options.spill ?? true,
    },
  };
  return new Promise((resolve) => {
    pending.set(message.id, resolve);
    worker.postMessage(message);
  });
}

declare global {
  interface Window {
    mediaHarness: { prepare: typeof prepare };
  }
}

window.mediaHarness = { prepare };
export type { HarnessSummary };
