import type { Endpoint } from '../core/contract/endpoints';
import type { ProvisionalSegment } from '../core/assemble/provisional-segment';
import type { Segment, TranscriptionResponse } from '../core/contract/response';
import type { CaptionUpdate } from '../core/live/captions';
import type { NetworkRecord } from '../core/network-note';
import type {
  CrashOrder,
  EngineSettings,
  FromWorker,
  ListenOptions,
  ModelRole,
  Progress,
  RequestFields,
  ToWorker,
} from './protocol';
import type { ServiceError } from '../core/contract/errors';
import type { SpeakerVoice } from '../core/voices/voice';
import type { RuntimeName, RuntimeProgress } from './runtimes';
import { fromWireError } from './envelope';
import { EXIT_AT_START } from './life-lock';
import { workerCrashError } from './runtime-fault';
import {
  browserLifeLocks,
  deathDetail,
  lifeLockName,
  LifeWatch,
  type LifeLocks,
} from './worker-watch';

export interface TranscribeCallbacks {
  onProgress?: (progress: Progress) => void;
  onSegment?: (segment: Segment) => void;
  /** The text of the window being decoded, before its checks; replaces the one before. */
  onProvisional?: (segments: ProvisionalSegment[]) => void;
  onNotice?: (notice: string) => void;
  onDevice?: (device: string) => void;
  /** The requests the workers made for this transcription (just before its result). */
  onNetwork?: (records: NetworkRecord[]) => void;
  /** The speakers diarization found, with their embeddings (just before the result). */
  onSpeakers?: (speakers: SpeakerVoice[]) => void;
  signal?: AbortSignal;
}

interface Pending extends TranscribeCallbacks {
  /**
   * A transcription's response, the model a download finished, the runtimes made ready, or a
   * live transcription's end.
   */
  resolve: (value: TranscriptionResponse | ModelRole | RuntimeName[] | null) => void;
  reject: (error: Error) => void;
  onCaptions?: (update: CaptionUpdate) => void;
}

/** The page's side of a live transcription (see `TranscriptionClient.listen`). */
export interface LiveListening {
  /** Sends the next samples of each channel, at 16 kHz; the arrays are transferred. */
  push(channels: Float32Array[]): void;
  /** No more audio: resolves once everything sent is captioned and settled. */
  end(): Promise<void>;
  /** Stops listening at once: no more updates come. */
  cancel(): void;
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

/**
 * The page's handle on the transcription worker. Cancelling terminates the worker (work inside
 * a model run cannot stop between steps) and the next request starts a fresh one. A worker that
 * dies (a WebAssembly trap nothing caught, a runtime fault it reports, or gone without a word,
 * as when the browser ends it for memory, at any time from its creation on) fails the running
 * call with a clear error and is replaced by the next request; the page keeps what the user
 * entered.
 */
export class TranscriptionClient {
  private worker: Worker | null = null;
  /** The current worker's life, watched from its creation. */
  private life: LifeWatch | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private settings: EngineSettings | null = null;
  /** Test builds: deaths ordered before the worker they are for exists. */
  private readonly crashOrders: CrashOrder[] = [];
  private exitNextAtStart = false;
  /** Requests the workers reported to a call that shows no Network note. */
  private readonly unclaimedNetwork: NetworkRecord[] = [];
  /** How many workers were found dead (tests wait on it). */
  deaths = 0;
  /** Told how far each runtime's fetch has come, whatever call needed it. */
  onRuntime: ((progress: RuntimeProgress) => void) | null = null;

  /** `createWorker(name)`: a worker with that `name` (the life lock it holds). */
  constructor(
    private readonly createWorker: (name: string) => Worker,
    private readonly locks: LifeLocks | null = browserLifeLocks(),
  ) {}

  /** Model choice and host; a restarted worker receives them again before any request. */
  configure(settings: EngineSettings): void {
    const gpuTurnedOn = settings.useGpu && this.settings?.useGpu === false;
    this.settings = settings;
    // A worker started without the GPU runs a runtime build that has none: an idle one is
    // ended, and the next request starts one that can use the GPU.
    if (gpuTurnedOn && this.worker && this.pending.size === 0) {
      this.endWorker();
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
    /** The text that was said, to time to the media instead of recognising it. */
    script?: string,
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
      const fields = requestFields(endpoint, form);
      const data = script === undefined ? fields : { ...fields, script };
      const message: ToWorker = { id, type: 'transcribe', data };
      this.ensureWorker().postMessage(message);
    });
  }

  /**
   * Starts a live transcription of audio as it is recorded: `onCaptions` gets each change of its
   * captions, `onError` its failure (the worker died, a model did not load). The worker runs one
   * thing at a time: a transcription asked for meanwhile waits for the live one's end.
   */
  listen(
    options: ListenOptions,
    onCaptions: (update: CaptionUpdate) => void,
    onError: (error: Error) => void,
  ): LiveListening {
    const id = this.nextId++;
    let finished: { resolve: () => void; reject: (e: Error) => void } | null = null;
    const ended = new Promise<void>((resolve, reject) => {
      finished = { resolve, reject };
    });
    ended.catch(() => undefined);
    this.pending.set(id, {
      onCaptions,
      resolve: () => finished!.resolve(),
      reject: (error) => {
        finished!.reject(error);
        onError(error);
      },
    });
    const worker = this.ensureWorker();
    worker.postMessage({ id, type: 'listen', data: options } satisfies ToWorker);
    return {
      push: (channels) => {
        if (!this.pending.has(id) || this.worker !== worker) return;
        const message: ToWorker = { id, type: 'listen-audio', data: { channels } };
        // Channels cut from one buffer transfer it once (a buffer listed twice cannot be).
        worker.postMessage(message, [...new Set(channels.map((c) => c.buffer as ArrayBuffer))]);
      },
      end: () => {
        if (this.pending.has(id) && this.worker === worker)
          worker.postMessage({ id, type: 'listen-end', data: null } satisfies ToWorker);
        return ended;
      },
      cancel: () => {
        if (!this.pending.delete(id)) return;
        finished!.resolve();
        if (this.worker === worker)
          worker.postMessage({ id, type: 'listen-cancel', data: null } satisfies ToWorker);
      },
    };
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

  /** Fetches every runtime this device uses ahead of use; progress goes to `onRuntime`. */
  prepareRuntimes(): Promise<RuntimeName[]> {
    const id = this.nextId++;
    return new Promise<RuntimeName[]>((resolve, reject) => {
      this.pending.set(id, { resolve: (value) => resolve(value as RuntimeName[]), reject });
      this.ensureWorker().postMessage({
        id,
        type: 'prepare-runtimes',
        data: null,
      } satisfies ToWorker);
    });
  }

  /**
   * Ends an idle worker, so that models deleted from the browser's cache are not kept loaded
   * in memory either: the next request loads (and downloads) them again.
   */
  release(): void {
    if (this.pending.size > 0) return;
    this.endWorker();
  }

  private cancel(id: number): void {
    const call = this.pending.get(id);
    if (!call) return;
    this.restart(new DOMException('The transcription was cancelled.', 'AbortError'));
  }

  /**
   * Test builds only: makes a worker die on purpose, so that the recovery can be tested (a
   * worker of another build ignores the order). An order for a worker not started yet waits
   * for it.
   */
  crashForTest(order: CrashOrder): void {
    if (order.worker === 'transcription' && order.at === 'start') {
      this.exitNextAtStart = true;
      return;
    }
    if (this.worker)
      this.worker.postMessage({ id: 0, type: 'crash', data: order } satisfies ToWorker);
    else this.crashOrders.push(order);
  }

  /** Ends the worker (not a death: its life is no longer watched). */
  private endWorker(): void {
    this.life?.stop();
    this.life = null;
    this.worker?.terminate();
    this.worker = null;
  }

  /** A worker found dead: every pending call fails with the reason, the next gets a new one. */
  private died(reason: ServiceError): void {
    this.deaths++;
    this.restart(reason);
  }

  /** Ends the worker and rejects every pending call with the given reason. */
  private restart(reason: Error): void {
    this.endWorker();
    for (const call of this.pending.values()) call.reject(reason);
    this.pending.clear();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const lockName = lifeLockName('transcription');
    const worker = this.createWorker(
      this.exitNextAtStart ? `${lockName}${EXIT_AT_START}` : lockName,
    );
    this.exitNextAtStart = false;
    this.worker = worker;
    // Watched before anything else can happen to it: a worker that never takes its lock is
    // counted dead when the start bound passes.
    if (this.locks) {
      this.life = new LifeWatch(this.locks, lockName, (death) => {
        if (worker === this.worker) this.died(workerCrashError(deathDetail(death)));
      });
    }
    worker.addEventListener('message', (event: MessageEvent<FromWorker>) =>
      this.receive(worker, event.data),
    );
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      if (worker !== this.worker) return;
      this.died(workerCrashError(event.message || 'an error nothing caught'));
    });
    for (const order of this.crashOrders.splice(0)) {
      worker.postMessage({ id: 0, type: 'crash', data: order } satisfies ToWorker);
    }
    if (this.settings) {
      worker.postMessage({ id: 0, type: 'configure', data: this.settings } satisfies ToWorker);
    }
    return worker;
  }

  private receive(worker: Worker, message: FromWorker): void {
    if (worker !== this.worker) return;
    if (message.type === 'watching') {
      this.life?.held(message.data);
      return;
    }
    if (message.type === 'crashed') {
      this.died(workerCrashError(message.data.message));
      return;
    }
    if (message.type === 'runtime') {
      this.onRuntime?.(message.data);
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
      case 'provisional':
        call.onProvisional?.(message.data);
        break;
      case 'notice':
        call.onNotice?.(message.data);
        break;
      case 'device':
        call.onDevice?.(message.data);
        break;
      case 'captions':
        call.onCaptions?.(message.data);
        break;
      case 'speakers':
        call.onSpeakers?.(message.data);
        break;
      case 'network':
        // A call that shows no note (a batch item) leaves its requests to the next that does.
        if (call.onNetwork) call.onNetwork([...this.unclaimedNetwork.splice(0), ...message.data]);
        else this.unclaimedNetwork.push(...message.data);
        break;
      case 'result':
      case 'downloaded':
      case 'prepared':
      case 'listened':
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
