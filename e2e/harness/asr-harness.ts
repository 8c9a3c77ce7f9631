import type { AsrBenchOptions, AsrBenchReply, AsrBenchRequest } from './asr-protocol';

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
    worker.onmessage = (event: MessageEvent<AsrBenchReply>) => {
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
    asrHarness: { run: typeof run };
  }
}

window.asrHarness = { run };
