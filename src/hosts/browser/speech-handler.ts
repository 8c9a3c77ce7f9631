import { loadSileroVad } from '../../engine/models/silero-vad';
import { toWireError } from '../../worker/envelope';
import { watchNetwork } from '../../worker/network-watch';
import { browserModelFiles } from './model-files';
import { browserOnnxRuntime } from './onnx-runtime';
import type { FromSpeechWorker, ToSpeechWorker } from './speech-worker-protocol';

/**
 * Voice activity detection in a worker of its own: the engine's worker recognises one stretch
 * of speech while this one finds the next (see speech-detector.ts for the other side). Loaded by
 * its entry (`speech.worker.ts`) once the worker holds its life lock.
 */
interface WorkerScope {
  postMessage(message: FromSpeechWorker, transfer?: Transferable[]): void;
  close(): void;
}
const scope = self as unknown as WorkerScope;
const post = (message: FromSpeechWorker, transfer: Transferable[] = []) =>
  scope.postMessage(message, transfer);

// Everything this worker fetches goes into the Network note of the transcription it serves.
watchNetwork((records) => post({ id: 0, type: 'network', data: records }));

const onnx = browserOnnxRuntime();
const running = new Map<number, AbortController>();

function detector(modelHost: string, modelId: string, signal?: AbortSignal) {
  return loadSileroVad(onnx, browserModelFiles(modelHost), {
    modelId,
    ...(signal ? { signal } : {}),
  });
}

async function handle(message: ToSpeechWorker): Promise<void> {
  switch (message.type) {
    case 'load': {
      const vad = await detector(message.data.modelHost, message.data.modelId);
      post({
        id: message.id,
        type: 'loaded',
        data: { streamWindows: vad.streamWindows, warmupWindows: vad.warmupWindows },
      });
      return;
    }
    case 'score': {
      const { modelHost, modelId, samples, offset, from, to } = message.data;
      const abort = new AbortController();
      running.set(message.id, abort);
      try {
        const vad = await detector(modelHost, modelId, abort.signal);
        const probabilities = await vad.probabilities(samples, {
          offset,
          from,
          to,
          signal: abort.signal,
          onProgress: (fraction, detail) =>
            post({ id: message.id, type: 'progress', data: { fraction, detail } }),
        });
        post({ id: message.id, type: 'scored', data: probabilities }, [probabilities.buffer]);
      } finally {
        running.delete(message.id);
      }
      return;
    }
    case 'cancel':
      running.get(message.id)?.abort();
      return;
    case 'crash':
      if (import.meta.env.MURMUR_TEST_HOOKS) scope.close();
      return;
    default: {
      const unknown: never = message;
      throw new Error(`Unknown message to the speech worker: ${JSON.stringify(unknown)}`);
    }
  }
}

/** Every message from the engine's worker (the entry hands them over in order). */
export function receive(event: MessageEvent<ToSpeechWorker>): void {
  const message = event.data;
  handle(message).catch((thrown: unknown) =>
    post({ id: message.id, type: 'error', data: toWireError(thrown) }),
  );
}
