import type { DiarizationReply, DiarizationRequest, DiarizationRun } from './diarization-protocol';

/** The harness's handle on the diarization stage in a module worker, as the app runs it. */
function run(options: DiarizationRun): Promise<DiarizationReply> {
  const worker = new Worker(new URL('./diarization.worker.ts', import.meta.url), {
    type: 'module',
  });
  return new Promise((done) => {
    worker.onmessage = (event: MessageEvent<DiarizationReply>) => {
      worker.terminate();
      done(event.data);
    };
    const request: DiarizationRequest = { id: 1, type: 'diarize', data: options };
    worker.postMessage(request);
  });
}

declare global {
  interface Window {
    diarizationHarness: { run: typeof run };
  }
}

window.diarizationHarness = { run };
