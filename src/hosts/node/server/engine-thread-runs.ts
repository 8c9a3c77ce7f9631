import type { TranscriptionResponse } from '../../../core/contract/response';
import type { PipelineOptions } from '../../../engine/pipeline';
import type { DecodedAudioHeld } from '../../../engine/streams/decoded-media';
import { fromWireError } from '../../../worker/envelope';
import type { EngineThreadReply } from './engine-thread-protocol';

/** A run sent to an engine thread, as its caller waits for it. */
export interface Run {
  options: PipelineOptions;
  /** Answered already (cancelled and not stopped in time): its events go nowhere. */
  abandoned?: boolean;
  /** What the run's decoded audio was last told to hold. */
  held?: DecodedAudioHeld;
  resolve: (response: TranscriptionResponse) => void;
  reject: (error: Error) => void;
}

/**
 * The runs sent to one engine thread and not yet ended (one at a time, as the slot sends them),
 * and the thread's replies handed to each run's caller.
 */
export class ThreadRuns {
  private readonly runs = new Map<number, Run>();
  private readonly waiters: (() => void)[] = [];

  get size(): number {
    return this.runs.size;
  }

  get(id: number): Run | undefined {
    return this.runs.get(id);
  }

  add(id: number, run: Run): void {
    this.runs.set(id, run);
  }

  /** Resolves once no run is under way. */
  drained(): Promise<void> {
    return this.runs.size === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  /** Hands a run's reply (any but the thread's own, id 0) to its caller. */
  deliver(reply: EngineThreadReply): void {
    const run = this.runs.get(reply.id);
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
      case 'speakers':
        run.options.onSpeakers?.(reply.data);
        return;
      case 'decoded-audio':
        run.held = reply.data;
        run.options.onDecodedAudio?.(reply.data);
        return;
      case 'result':
        this.settled(reply.id);
        run.resolve(reply.data);
        return;
      case 'error':
        this.settled(reply.id);
        run.reject(fromWireError(reply.data));
        return;
    }
  }

  /** Fails every run left with `error`: their thread has ended. */
  failAll(error: Error): void {
    const left = [...this.runs.values()];
    this.runs.clear();
    for (const resolve of this.waiters.splice(0)) resolve();
    for (const run of left) {
      // The thread's memory went with it.
      if (run.held && run.held.bytes > 0) {
        run.options.onDecodedAudio?.({ bytes: 0, peakBytes: run.held.peakBytes });
      }
      run.reject(error);
    }
  }

  private settled(id: number): void {
    this.runs.delete(id);
    if (this.runs.size === 0) for (const resolve of this.waiters.splice(0)) resolve();
  }
}
