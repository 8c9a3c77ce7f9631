import type { TranslationReply, TranslationRequest, TranslationRun } from './translation-protocol';

/** The harness's handle on the translator in a module worker, as the app runs it. */
function run(options: TranslationRun): Promise<TranslationReply> {
  const worker = new Worker(new URL('./translation.worker.ts', import.meta.url), {
    type: 'module',
  });
  return new Promise((done) => {
    worker.onmessage = (event: MessageEvent<TranslationReply>) => {
      worker.terminate();
      done(event.data);
    };
    const request: TranslationRequest = { id: 1, type: 'translate', data: options };
    worker.postMessage(request);
  });
}

declare global {
  interface Window {
    translationHarness: { run: typeof run };
  }
}

window.translationHarness = { run };
