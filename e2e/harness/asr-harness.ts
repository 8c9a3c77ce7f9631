import type {
  AsrBenchOptions,
  AsrBenchProgress,
  AsrBenchReply,
  AsrBenchRequest,
} from './asr-protocol';

/** The end of the last segment the running engine posted (with `reportProgress`), seconds. */
let heardSeconds = 0;

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
    heardSeconds = 0;
    worker.onmessage = (event: MessageEvent<AsrBenchReply | AsrBenchProgress>) => {
      if (event.data.type === 'progress') {
        heardSeconds = event.data.data.heardSeconds;
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
    asrHarness: { run: typeof run; heardSeconds(): number };
  }
}

window.asrHarness = { run, heardSeconds: () => heardSeconds };
