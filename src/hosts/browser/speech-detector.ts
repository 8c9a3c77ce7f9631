import { ServiceError } from '../../core/contract/errors';
import { pieceStart, VAD_WINDOW } from '../../engine/models/silero-vad';
import type { SpeechDetector, SpeechDetectorLoader } from '../../engine/ports';
import { fromWireError } from '../../worker/envelope';
import { EXIT_AT_START } from '../../worker/life-lock';
import { startWorker } from '../../worker/page-policy-worker';
import { browserLifeLocks, deathDetail, lifeLockName, LifeWatch } from '../../worker/worker-watch';
import { heardFromWorker } from './network-ledger';
import type { FromSpeechWorker, ToSpeechWorker } from './speech-worker-protocol';
import speechWorker from './speech.worker.ts?worker&url';

interface Call {
  resolve: (reply: FromSpeechWorker) => void;
  reject: (error: Error) => void;
  onProgress?: (fraction: number | null, detail: string) => void;
}

/**
 * Test builds: the live speech workers, and whether the next one is to close at its start or
 * the one asked to score next is to close first.
 */
const testHooks = { live: new Set<Worker>(), exitAtStart: false, exitAtScore: false };

/**
 * Test builds: ends the speech workers now, makes the next one close before its life lock
 * (`start`), or the one asked to score next close before it scores (`score`).
 */
export function crashSpeechWorkerForTest(at: 'now' | 'start' | 'score'): void {
  if (at === 'start') testHooks.exitAtStart = true;
  else if (at === 'score') testHooks.exitAtScore = true;
  else for (const live of testHooks.live) live.postMessage({ id: 0, type: 'crash', data: null });
}

function speechWorkerError(detail: string): ServiceError {
  return new ServiceError(
    'internal_error',
    `Voice activity detection stopped (${detail}). It starts again with the next request: your file and options are kept, so you can run it again.`,
  );
}

/**
 * Silero VAD (`modelId`) from `modelHost`, run in a worker of its own (speech.worker.ts) that
 * starts on first use and stays. Each scoring call sends only the stretch of samples it reads.
 * A speech worker that dies fails the calls waiting on it (watched through its life lock as the
 * page watches the transcription worker), and the next call starts a new one.
 */
export function workerSpeechDetectors(modelHost: string, modelId: string): SpeechDetectorLoader {
  let worker: Worker | null = null;
  let life: LifeWatch | null = null;
  let nextId = 1;
  const calls = new Map<number, Call>();
  const locks = browserLifeLocks();

  const fail = (started: Worker, error: Error) => {
    if (started !== worker) return;
    for (const call of calls.values()) call.reject(error);
    calls.clear();
    life?.stop();
    life = null;
    started.terminate();
    testHooks.live.delete(started);
    worker = null;
  };

  const start = (): Worker => {
    if (worker) return worker;
    const lockName = lifeLockName('speech');
    const exitAtStart = testHooks.exitAtStart;
    testHooks.exitAtStart = false;
    const started = startWorker(speechWorker, {
      name: exitAtStart ? `${lockName}${EXIT_AT_START}` : lockName,
    });
    testHooks.live.add(started);
    worker = started;
    if (locks) {
      life = new LifeWatch(locks, lockName, (death) =>
        fail(started, speechWorkerError(deathDetail(death))),
      );
    }
    started.addEventListener('message', (event: MessageEvent<FromSpeechWorker>) => {
      const reply = event.data;
      if (reply.type === 'watching') {
        if (started === worker) life?.held(reply.data);
        return;
      }
      if (reply.type === 'network') {
        heardFromWorker(reply.data);
        return;
      }
      const call = calls.get(reply.id);
      if (!call) return;
      if (reply.type === 'progress') {
        call.onProgress?.(reply.data.fraction, reply.data.detail);
        return;
      }
      calls.delete(reply.id);
      if (reply.type === 'error') call.reject(fromWireError(reply.data));
      else call.resolve(reply);
    });
    started.addEventListener('error', (event) => {
      event.preventDefault();
      fail(started, speechWorkerError(event.message || 'an error nothing caught'));
    });
    return started;
  };

  const call = (
    message: Omit<ToSpeechWorker, 'id'>,
    options: { signal?: AbortSignal; onProgress?: Call['onProgress']; transfer?: Transferable[] },
  ): Promise<FromSpeechWorker> => {
    const id = nextId++;
    const target = start();
    return new Promise((resolve, reject) => {
      const { signal } = options;
      if (signal?.aborted) {
        reject(signal.reason as Error);
        return;
      }
      const onAbort = () => {
        calls.delete(id);
        target.postMessage({ id, type: 'cancel', data: null } satisfies ToSpeechWorker);
        reject(signal!.reason as Error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      calls.set(id, {
        resolve: (reply) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(reply);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      });
      if (testHooks.exitAtScore && message.type === 'score') {
        testHooks.exitAtScore = false;
        target.postMessage({ id: 0, type: 'crash', data: null } satisfies ToSpeechWorker);
      }
      target.postMessage({ ...message, id } as ToSpeechWorker, options.transfer ?? []);
    });
  };

  return async ({ signal }) => {
    const loaded = await call(
      { type: 'load', data: { modelHost, modelId } },
      signal ? { signal } : {},
    );
    if (loaded.type !== 'loaded') throw new Error(`Unexpected ${loaded.type} from VAD.`);
    const detector: SpeechDetector = {
      ...loaded.data,
      runsApart: true,
      async probabilities(samples, options = {}) {
        const base = options.offset ?? 0;
        const from = options.from ?? 0;
        const to = options.to ?? Math.ceil((base * VAD_WINDOW + samples.length) / VAD_WINDOW);
        // Only the stretch this piece reads crosses to the worker (a copy it then owns).
        const first = Math.max(base, pieceStart(detector, from));
        const piece = samples.slice(
          (first - base) * VAD_WINDOW,
          Math.min(samples.length, (to - base) * VAD_WINDOW),
        );
        const scored = await call(
          {
            type: 'score',
            data: {
              modelHost,
              modelId,
              samples: piece,
              offset: first,
              from,
              to,
            },
          },
          {
            ...(options.signal ? { signal: options.signal } : {}),
            ...(options.onProgress ? { onProgress: options.onProgress } : {}),
            transfer: [piece.buffer],
          },
        );
        if (scored.type !== 'scored') throw new Error(`Unexpected ${scored.type} from VAD.`);
        return scored.data;
      },
    };
    return detector;
  };
}
