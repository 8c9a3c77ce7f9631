import type { AsrBenchReply, AsrBenchRequest } from './asr-protocol';

/** The benchmark's handle on recognition in a module worker, as the app runs it. */
function run(options: Omit<AsrBenchRequest, 'file' | 'pcm'>): Promise<AsrBenchReply> {
  const input = document.querySelector<HTMLInputElement>('[data-testid="harness.file"]');
  const files = [...(input?.files ?? [])];
  const file = files.find((f) => !f.name.endsWith('.f32'));
  const pcm = files.find((f) => f.name.endsWith('.f32'));
  if (!file || !pcm) return Promise.resolve({ ok: false, error: 'Choose the .wav and the .f32.' });
  const worker = new Worker(new URL('./asr.worker.ts', import.meta.url), { type: 'module' });
  return new Promise((done) => {
    worker.onmessage = (event: MessageEvent<AsrBenchReply>) => {
      worker.terminate();
      done(event.data);
    };
    worker.postMessage({ ...options, file, pcm } satisfies AsrBenchRequest);
  });
}

declare global {
  interface Window {
    asrHarness: { run: typeof run };
  }
}

window.asrHarness = { run };
