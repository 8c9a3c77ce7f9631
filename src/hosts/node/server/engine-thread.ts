import { Worker } from 'node:worker_threads';
import type { MediaFile, TranscriptionRequest } from '../../../core/contract/request';
import type { TranscriptionResponse } from '../../../core/contract/response';
import type { PipelineRunner } from '../../../engine/job/job';
import type { PipelineOptions } from '../../../engine/pipeline';
import type { DecodedAudioHeld } from '../../../engine/streams/decoded-media';
import { fromWireError, toWireError } from '../../../worker/envelope';
import type { DiskFile } from '../media-file';
import type {
  EngineThreadCall,
  EngineThreadData,
  EngineThreadReply,
  ThreadEngineSettings,
} from './engine-thread-protocol';

const WORKER = new URL('./engine-thread-worker.mjs', import.meta.url);

/**
 * How long a cancelled run may take to stop before its caller is answered and the slot gets a
 * fresh thread: a step that does not return to the thread's loop (one ffmpeg program, one model
 * call) is not waited for.
 */
const CANCEL_GRACE_MS = 2000;

/**
 * How long a thread put aside (its cancelled run did not stop in time) is left to finish before
 * it is ended anyway. It is not ended at once: ending a thread while onnxruntime runs a model
 * on it aborts the whole process.
 */
const RETIRE_LIMIT_MS = 60_000;

interface Run {
  options: PipelineOptions;
  /** Answered already (cancelled and not stopped in time): its events go nowhere. */
  abandoned?: boolean;
  /** What the run's decoded audio was last told to hold. */
  held?: DecodedAudioHeld;
  resolve: (response: TranscriptionResponse) => void;
  reject: (error: Error) => void;
}

interface Thread {
  worker: Worker;
  ready: Promise<void>;
  /** The runs sent to this thread and not yet ended (one at a time, as the slot sends them). */
  runs: Map<number, Run>;
  /** Resolves once no run is under way. */
  drained(): Promise<void>;
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
        events: {
          progress: options.onProgress !== undefined,
          segments: options.onSegment !== undefined,
          turns: options.onSpeakerTurns !== undefined,
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
      thread.runs.set(id, {
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
        thread.drained(),
        new Promise((resolve) => setTimeout(resolve, this.retireLimitMs).unref()),
      ]);
    }
    await thread.worker.terminate();
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
    const runs = new Map<number, Run>();
    const waiters: (() => void)[] = [];
    const drained = () =>
      runs.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve));
    const settled = (id: number) => {
      runs.delete(id);
      if (runs.size === 0) for (const resolve of waiters.splice(0)) resolve();
    };
    const thread: Thread = { worker, ready, runs, drained };
    worker.on('message', (reply: EngineThreadReply) => {
      if (reply.id === 0) {
        if (reply.type === 'ready') {
          if (runs.size === 0) worker.unref();
          loaded();
        } else if (reply.type === 'error') failed(fromWireError(reply.data));
        return;
      }
      const run = runs.get(reply.id);
      if (run === undefined) return;
      // What an abandoned run holds is still held, on its thread, until the run stops.
      const told =
        reply.type === 'result' || reply.type === 'error' || reply.type === 'decoded-audio';
      if (run.abandoned && !told) return;
      switch (reply.type) {
        case 'progress':
          run.options.onProgress?.(reply.data.stage, reply.data.fraction, reply.data.detail);
          return;
        case 'segment':
          run.options.onSegment?.(reply.data);
          return;
        case 'turns':
          run.options.onSpeakerTurns?.(reply.data);
          return;
        case 'decoded-audio':
          run.held = reply.data;
          run.options.onDecodedAudio?.(reply.data);
          return;
        case 'result':
          settled(reply.id);
          run.resolve(reply.data);
          return;
        case 'error':
          settled(reply.id);
          run.reject(fromWireError(reply.data));
          return;
      }
    });
    let ended: Error | null = null;
    const fail = (error: Error) => {
      ended ??= error;
      if (this.thread === thread) this.thread = null;
      failed(ended);
      const left = [...runs.values()];
      runs.clear();
      for (const resolve of waiters.splice(0)) resolve();
      for (const run of left) {
        // The thread's memory went with it.
        if (run.held && run.held.bytes > 0) {
          run.options.onDecodedAudio?.({ bytes: 0, peakBytes: run.held.peakBytes });
        }
        run.reject(ended);
      }
    };
    worker.on('error', (error) =>
      fail(new Error(`The transcription thread failed: ${error.message}`)),
    );
    worker.on('exit', (code) => fail(new Error(`The transcription thread ended (exit ${code}).`)));
    this.thread = thread;
    return thread;
  }
}
