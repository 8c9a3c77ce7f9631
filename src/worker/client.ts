import type { Endpoint } from '../core/contract/endpoints';
import type { Segment, TranscriptionResponse } from '../core/contract/response';
import type {
  CrashKind,
  EngineSettings,
  FromWorker,
  ModelRole,
  Progress,
  RequestFields,
  ToWorker,
} from './protocol';
import { fromWireError } from './envelope';
import { workerCrashError } from './runtime-fault';
import { lockExitWatch, type ExitWatch } from './worker-watch';

export interface TranscribeCallbacks {
  onProgress?: (progress: Progress) => void;
  onSegment?: (segment: Segment) => void;
  onNotice?: (notice: string) => void;
  onDevice?: (device: string) => void;
  signal?: AbortSignal;
}

interface Pending extends TranscribeCallbacks {
  /** A transcription's response, or the model a download finished. */
  resolve: (value: TranscriptionResponse | ModelRole) => void;
  reject: (error: Error) => void;
}

/** FormData cannot be posted to a worker; its strings and files can. */
export function requestFields(endpoint: Endpoint, form: FormData): RequestFields {
  const fields: RequestFields = { endpoint, strings: {}, files: {} };
  form.forEach((value, key) => {
    if (typeof value === 'string') fields.strings[key] = value;
    else fields.files[key] = value;
  });
  return fields;
}

let lockSerial = 0;

/**
 * The page's handle on the transcription worker. Cancelling terminates the worker (work inside
 * a model run cannot stop between steps) and the next request starts a fresh one. A worker that
 * dies (a WebAssembly trap nothing caught, a runtime fault it reports, or gone without a word,
 * as when the browser ends it for memory) fails the running call with a clear error and is
 * replaced by the next request; the page keeps what the user entered.
 */
export class TranscriptionClient {
  private worker: Worker | null = null;
  /** Stops watching the current worker's life lock. */
  private unwatch: AbortController | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private settings: EngineSettings | null = null;

  constructor(
    private readonly createWorker: () => Worker,
    private readonly watchExit: ExitWatch | null = lockExitWatch(),
  ) {}

  /** Model choice and host; a restarted worker receives them again before any request. */
  configure(settings: EngineSettings): void {
    const gpuTurnedOn = settings.useGpu && this.settings?.useGpu === false;
    this.settings = settings;
    // A worker started without the GPU runs a runtime build that has none: an idle one is
    // ended, and the next request starts one that can use the GPU.
    if (gpuTurnedOn && this.worker && this.pending.size === 0) {
      this.worker.terminate();
      this.worker = null;
      return;
    }
    this.worker?.postMessage({ id: 0, type: 'configure', data: settings } satisfies ToWorker);
  }

  /**
   * Starts the worker ahead of a request, so that it loads what every request needs (ffmpeg,
   * the VAD model) while the user is still choosing options.
   */
  prepare(settings: EngineSettings): void {
    this.configure(settings);
    this.ensureWorker();
  }

  transcribe(
    endpoint: Endpoint,
    form: FormData,
    callbacks: TranscribeCallbacks = {},
  ): Promise<TranscriptionResponse> {
    const id = this.nextId++;
    return new Promise<TranscriptionResponse>((resolve, reject) => {
      if (callbacks.signal?.aborted) {
        reject(new DOMException('The transcription was cancelled.', 'AbortError'));
        return;
      }
      this.pending.set(id, {
        ...callbacks,
        resolve: (value) => resolve(value as TranscriptionResponse),
        reject,
      });
      callbacks.signal?.addEventListener('abort', () => this.cancel(id), { once: true });
      const message: ToWorker = { id, type: 'transcribe', data: requestFields(endpoint, form) };
      this.ensureWorker().postMessage(message);
    });
  }

  /** Downloads one of the configured models ahead of use, with its progress. */
  download(
    role: ModelRole,
    callbacks: Pick<TranscribeCallbacks, 'onProgress'> = {},
  ): Promise<ModelRole> {
    const id = this.nextId++;
    return new Promise<ModelRole>((resolve, reject) => {
      this.pending.set(id, {
        ...callbacks,
        resolve: (value) => resolve(value as ModelRole),
        reject,
      });
      this.ensureWorker().postMessage({ id, type: 'download', data: role } satisfies ToWorker);
    });
  }

  /**
   * Ends an idle worker, so that models deleted from the browser's cache are not kept loaded
   * in memory either: the next request loads (and downloads) them again.
   */
  release(): void {
    if (this.pending.size > 0) return;
    this.worker?.terminate();
    this.worker = null;
  }

  private cancel(id: number): void {
    const call = this.pending.get(id);
    if (!call) return;
    this.restart(new DOMException('The transcription was cancelled.', 'AbortError'));
  }

  /**
   * Test builds only: makes the worker die on purpose, so that the recovery can be tested (a
   * worker of another build ignores the message).
   */
  crashForTest(kind: CrashKind): void {
    this.worker?.postMessage({ id: 0, type: 'crash', data: kind } satisfies ToWorker);
  }

  /** Ends the worker and rejects every pending call with the given reason. */
  private restart(reason: Error): void {
    this.unwatch?.abort();
    this.unwatch = null;
    this.worker?.terminate();
    this.worker = null;
    for (const call of this.pending.values()) call.reject(reason);
    this.pending.clear();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = this.createWorker();
    worker.addEventListener('message', (event: MessageEvent<FromWorker>) =>
      this.receive(worker, event.data),
    );
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      if (worker !== this.worker) return;
      this.restart(workerCrashError(event.message || 'an error nothing caught'));
    });
    this.worker = worker;
    if (this.watchExit) {
      worker.postMessage({
        id: 0,
        type: 'watch',
        data: `murmur-transcription-worker-${++lockSerial}-${Math.random().toString(36).slice(2)}`,
      } satisfies ToWorker);
    }
    if (this.settings) {
      worker.postMessage({ id: 0, type: 'configure', data: this.settings } satisfies ToWorker);
    }
    return worker;
  }

  /** The worker holds its life lock: once the page is granted it, the worker is gone. */
  private watch(worker: Worker, lockName: string): void {
    if (!this.watchExit || worker !== this.worker) return;
    const unwatch = new AbortController();
    this.unwatch = unwatch;
    this.watchExit(lockName, unwatch.signal).then(
      () => {
        if (worker !== this.worker) return;
        this.restart(workerCrashError('it ran out of memory or was ended by the browser'));
      },
      () => undefined,
    );
  }

  private receive(worker: Worker, message: FromWorker): void {
    if (worker !== this.worker) return;
    if (message.type === 'watching') {
      this.watch(worker, message.data);
      return;
    }
    if (message.type === 'crashed') {
      this.restart(workerCrashError(message.data.message));
      return;
    }
    const call = this.pending.get(message.id);
    if (!call) return;
    switch (message.type) {
      case 'progress':
        call.onProgress?.(message.data);
        break;
      case 'segment':
        call.onSegment?.(message.data);
        break;
      case 'notice':
        call.onNotice?.(message.data);
        break;
      case 'device':
        call.onDevice?.(message.data);
        break;
      case 'result':
      case 'downloaded':
        this.pending.delete(message.id);
        call.resolve(message.data);
        break;
      case 'error':
        this.pending.delete(message.id);
        call.reject(fromWireError(message.data));
        break;
      default:
        throw new Error(
          `Unknown message from the worker: ${JSON.stringify(message satisfies never)}`,
        );
    }
  }
}
