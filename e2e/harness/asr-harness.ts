import type {
  AsrBenchOptions,
  AsrBenchProgress,
  AsrBenchReply,
  AsrBenchRequest,
} from './asr-protocol';

/** Where the running engine is (with `reportProgress`): see `AsrBenchProgress`. */
let progress: AsrBenchProgress['data'] = { heardSeconds: 0, stage: null };

/** The benchmark's handle on recognition in a module worker, as the app runs it. */
function run(options: AsrBenchOptions): Promise<AsrBenchReply> {
  const input = document.querySelector<HTMLInputElement>('[data-testid="harness.file"]');
  const files = [...(input?.files ?? [])];
  const file = files.find((f) => !f.name.endsWith('.f32'));
  const pcm = files.find((f) => f.name.endsWith('.f32'));
  if (!file || !pcm) {
    const message = 'Choose the .wav and the .f32.';
    return Promise.resolve({
      id: 1,
      type: 'error',
      data: { code: null, name: 'Error', message, problems: [] },
    });
  }
  const worker = new Worker(new URL('./asr.worker.ts', import.meta.url), { type: 'module' });
  return new Promise((done) => {
    progress = { heardSeconds: 0, stage: null };
    worker.onmessage = (event: MessageEvent<AsrBenchReply | AsrBenchProgress>) => {
      if (event.data.type === 'progress') {
        progress = event.data.data;
        return;
      }
      worker.terminate();
      done(event.data);
    };
    worker.postMessage({
      id: 1,
      type: 'run',
      data: { ...options, file, pcm },
    } satisfies AsrBenchRequest);
  });
}

declare global {
  interface Window {
    asrHarness: { run: typeof run; progress(): AsrBenchProgress['data'] };
  }
}

window.asrHarness = { run, progress: () => progress };
