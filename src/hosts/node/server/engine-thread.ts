import { Worker } from 'node:worker_threads';
import type { MediaFile, TranscriptionRequest } from '../../../core/contract/request';
import type { TranscriptionResponse } from '../../../core/contract/response';
import type { PipelineRunner } from '../../../engine/job/job';
import type { PipelineOptions } from '../../../engine/pipeline';
import { fromWireError, toWireError } from '../../../worker/envelope';
import type { DiskFile } from '../media-file';
import type {
  EngineThreadCall,
  EngineThreadData,
  EngineThreadReply,
  ThreadEngineSettings,
} from './engine-thread-protocol';
import { ThreadRuns } from './engine-thread-runs';

const WORKER = new URL('./engine-thread-worker.mjs', import.meta.url);

/**
 * How long a cancelled run may take to stop before its caller is answered and the slot gets a
 * fresh thread (a step that does not return to the thread's loop is not waited for).
 */
const CANCEL_GRACE_MS = 2000;

/**
 * How long a thread put aside (its cancelled run did not stop in time) is left to finish before
 * it is ended anyway. It is not ended at once: ending a thread while onnxruntime runs a model
 * on it aborts the whole process.
 */
const RETIRE_LIMIT_MS = 60_000;
/** How long a settled thread asked to leave is given to end by itself. */
const LEAVE_LIMIT_MS = 5_000;

interface Thread {
  worker: Worker;
  ready: Promise<void>;
  runs: ThreadRuns;
  /** Called when the thread answers that no model is loading any more. */
  settled?: () => void;
  /** Resolved when the thread has ended. */
  exited: Promise<void>;
}

export interface EngineThreadOptions {
  /** The thread's entry (tests give one that misbehaves); the engine's by default. */
  entry?: URL;
  cancelGraceMs?: number;
  retireLimitMs?: number;
  /** Whether the thread yields the cores to its caller's (a server's); true by default. */
  yieldToCaller?: boolean;
  /** Whether the models load before the first run rather than in it; true by default. */
  loadFirst?: boolean;
}

/**
 * One concurrency slot's engine on a worker thread of its own. The models, ffmpeg and every
 * stage of the pipeline run there: on the server's thread even the stages written in JS held
 * answers to /health and to requests refused at once for hundreds of milliseconds. A thread
 * that ends (a crash) fails its run with an internal error, and the next run starts a fresh
 * one, which loads the models again. A cancelled run that does not stop in time is answered
 * with its reason and its thread put aside: ended once the run has stopped (or after
 * `RETIRE_LIMIT_MS`), never in the middle of a model call.
 */
export class EngineThread implements PipelineRunner {
  private thread: Thread | null = null;
  private next = 0;
  private readonly entry: URL;
  private readonly graceMs: number;
  private readonly retireLimitMs: number;
  private readonly yieldToCaller: boolean;
  private readonly loadFirst: boolean;

  constructor(
    private readonly settings: ThreadEngineSettings,
    options: EngineThreadOptions = {},
  ) {
    this.entry = options.entry ?? WORKER;
    this.graceMs = options.cancelGraceMs ?? CANCEL_GRACE_MS;
    this.retireLimitMs = options.retireLimitMs ?? RETIRE_LIMIT_MS;
    this.yieldToCaller = options.yieldToCaller ?? true;
    this.loadFirst = options.loadFirst ?? true;
  }

  /** Starts the thread, if it is not running, and resolves once its models are loaded. */
  start(): Promise<void> {
    return this.current().ready;
  }

  async runPipeline<F extends MediaFile>(
    request: TranscriptionRequest<F>,
    options: PipelineOptions,
  ): Promise<TranscriptionResponse> {
    const { signal } = options;
    signal?.throwIfAborted();
    const thread = this.current();
    await thread.ready;
    signal?.throwIfAborted();
    const id = ++this.next;
    const call: EngineThreadCall = {
      id,
      type: 'run',
      data: {
        request: request as unknown as TranscriptionRequest<DiskFile>,
        ...(options.limits ? { limits: options.limits } : {}),
        ...(options.script ? { script: options.script } : {}),
        ...(options.settings ? { settings: options.settings } : {}),
        ...(options.voices ? { voices: options.voices } : {}),
        events: {
          progress: options.onProgress !== undefined,
          segments: options.onSegment !== undefined,
          turns: options.onSpeakerTurns !== undefined,
          speakers: options.onSpeakers !== undefined,
          decodedAudio: options.onDecodedAudio !== undefined,
        },
      },
    };
    return new Promise<TranscriptionResponse>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = () => {
        thread.worker.postMessage({
          id,
          type: 'cancel',
          data: toWireError(signal?.reason),
        } satisfies EngineThreadCall);
        timer = setTimeout(() => {
          const run = thread.runs.get(id);
          if (run === undefined) return;
          // The caller is answered now; the thread finishes its step elsewhere.
          run.abandoned = true;
          run.reject(signal?.reason as Error);
          void this.end(thread);
        }, this.graceMs);
      };
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (thread.runs.size === 0) thread.worker.unref();
      };
      thread.runs.add(id, {
        options,
        resolve: (response) => {
          settle();
          resolve(response);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      // A thread with a run under way keeps the process alive; an idle one does not.
      thread.worker.ref();
      thread.worker.postMessage(call);
    });
  }

  /**
   * Ends the thread; a later run starts a fresh one. Runs under way are waited for (up to
   * `RETIRE_LIMIT_MS`; cancel them first).
   */
  async close(): Promise<void> {
    if (this.thread) await this.end(this.thread);
  }

  /**
   * Puts the thread aside (the next run starts a fresh one) and ends it once no run is under
   * way on it, or after the limit.
   */
  private async end(thread: Thread) {
    if (this.thread === thread) this.thread = null;
    if (thread.runs.size > 0) {
      thread.worker.ref();
      await Promise.race([
        thread.runs.drained(),
        new Promise((resolve) => setTimeout(resolve, this.retireLimitMs).unref()),
      ]);
    }
    // Ended while a model's session is being created, the runtime would abort the process. The
    // answer is waited for with the thread held, or a process with nothing else to do would end
    // before it comes (a command line's top-level await then fails with exit 13).
    thread.worker.ref();
    await Promise.race([
      new Promise<void>((resolve) => {
        thread.settled = resolve;
        thread.worker.postMessage({ id: 0, type: 'settle', data: null } satisfies EngineThreadCall);
      }),
      new Promise((resolve) => setTimeout(resolve, this.retireLimitMs).unref()),
    ]);
    // Ended from outside, a thread whose runtime still has native work to finish aborts the
    // process now and then: it ends by itself, or is ended if it has not within a few seconds.
    thread.worker.postMessage({ id: 0, type: 'leave', data: null } satisfies EngineThreadCall);
    const left = await Promise.race([
      thread.exited.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), LEAVE_LIMIT_MS).unref()),
    ]);
    if (!left) await thread.worker.terminate();
  }

  private current(): Thread {
    if (this.thread) return this.thread;
    // Loading keeps the process alive; an idle thread then does not.
    const data: EngineThreadData = {
      settings: this.settings,
      yieldToCaller: this.yieldToCaller,
      loadFirst: this.loadFirst,
    };
    const worker = new Worker(this.entry, { workerData: data });
    let loaded: () => void = () => undefined;
    let failed: (error: Error) => void = () => undefined;
    const ready = new Promise<void>((resolve, reject) => {
      loaded = resolve;
      failed = reject;
    });
    // Nobody may be waiting yet: a failure to load is told to whoever waits later.
    ready.catch(() => undefined);
    const runs = new ThreadRuns();
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    const thread: Thread = { worker, ready, runs, exited };
    worker.on('message', (reply: EngineThreadReply) => {
      if (reply.id === 0) {
        if (reply.type === 'settled') {
          thread.settled?.();
          return;
        }
        if (reply.type === 'ready') {
          if (runs.size === 0) worker.unref();
          loaded();
        } else if (reply.type === 'error') failed(fromWireError(reply.data));
        return;
      }
      runs.deliver(reply);
    });
    let ended: Error | null = null;
    const fail = (error: Error) => {
      ended ??= error;
      if (this.thread === thread) this.thread = null;
      failed(ended);
      runs.failAll(ended);
    };
    worker.on('error', (error) =>
      fail(new Error(`The transcription thread failed: ${error.message}`)),
    );
    worker.on('exit', (code) => {
      // A thread that has ended has nothing left loading.
      thread.settled?.();
      fail(new Error(`The transcription thread ended (exit ${code}).`));
    });
    this.thread = thread;
    return thread;
  }
}
