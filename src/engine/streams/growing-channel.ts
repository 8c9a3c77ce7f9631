import type { Pcm } from '../../core/audio/pcm';
import type { SpeechEvidence } from '../../core/audio/speech-gate';
import { toSeconds } from '../../core/units';
import type { ChannelAudio, SpeechRegion } from './speech-audio';

/**
 * A channel that recognition may start on while the media stage still decodes it and finds
 * its speech: samples and speech regions only grow, and what is there never changes.
 */
export interface GrowingChannel {
  /** Index of the channel in the file (0-based). */
  readonly index: number;
  /** The samples so far (the array may be replaced by a longer one; its start stays). */
  readonly samples: Pcm;
  /** Seconds in the file: the container's figure while decoding, the decoded length once complete. */
  readonly duration: number;
  /** Speech regions that later audio cannot change, in time order; all of them once complete. */
  readonly speech: readonly SpeechRegion[];
  readonly complete: boolean;
  /** Resolves when more is known; rejects if the media stage failed or `signal` aborts. */
  changed(signal?: AbortSignal): Promise<void>;
  /** Throws the media stage's failure, if it failed: what is there will never complete. */
  throwIfFailed(): void;
  /**
   * Says that a reader (recognition) works on the channel from now on, until the returned
   * function is called: the speech stage then knows when it is busy and when it waits.
   */
  attach(): () => void;
}

/**
 * The same channel with only the regions heard one way (`voice`: VAD's speech, regions without
 * a mark included; `level`: loud stretches VAD rejected), read live as the channel grows.
 */
export function onlyHeard(channel: GrowingChannel, heard: SpeechEvidence): GrowingChannel {
  const keep = (r: SpeechRegion) => (r.heard ?? 'voice') === heard;
  return {
    index: channel.index,
    get samples() {
      return channel.samples;
    },
    get duration() {
      return channel.duration;
    },
    get speech() {
      return channel.speech.filter(keep);
    },
    get complete() {
      return channel.complete;
    },
    changed: (signal) => channel.changed(signal),
    throwIfFailed: () => channel.throwIfFailed(),
    attach: () => channel.attach(),
  };
}

/** A channel whose speech is all known. */
export function completeChannel(channel: ChannelAudio): GrowingChannel {
  return {
    ...channel,
    duration: toSeconds(channel.samples.length),
    complete: true,
    changed: () => Promise.resolve(),
    throwIfFailed: () => undefined,
    attach: () => () => undefined,
  };
}

/** The speech stage's side of a growing channel: it adds to it, then completes or fails it. */
export class ChannelFeed implements GrowingChannel {
  samples: Pcm;
  speech: readonly SpeechRegion[] = [];
  complete = false;
  private failure: unknown = null;
  private waiting: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  private readers = 0;
  private onIdle: (() => void)[] = [];

  constructor(
    readonly index: number,
    samples: Pcm,
    public duration: number,
  ) {
    this.samples = samples;
  }

  update(samples: Pcm, speech: readonly SpeechRegion[]): void {
    this.samples = samples;
    this.speech = speech;
    this.wake();
  }

  finish(samples: Pcm, speech: readonly SpeechRegion[]): void {
    this.complete = true;
    this.duration = toSeconds(samples.length);
    this.update(samples, speech);
  }

  fail(reason: unknown): void {
    if (this.complete) return;
    this.failure = reason ?? new Error('The media stage failed.');
    this.wake();
  }

  attach(): () => void {
    this.readers++;
    let attached = true;
    return () => {
      if (!attached) return;
      attached = false;
      this.readers--;
      this.notifyIdle();
    };
  }

  /**
   * Resolves once no reader is busy with what it has: none is attached, or one waits for more
   * (`changed`), or the channel is complete or failed.
   */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.onIdle.push(resolve));
  }

  private isIdle(): boolean {
    return this.readers === 0 || this.waiting.length > 0 || this.complete || this.failure !== null;
  }

  private notifyIdle(): void {
    if (!this.isIdle()) return;
    const waiting = this.onIdle;
    this.onIdle = [];
    for (const resolve of waiting) resolve();
  }

  throwIfFailed(): void {
    if (this.failure !== null && !this.complete) throw this.failure;
  }

  changed(signal?: AbortSignal): Promise<void> {
    if (this.complete) return Promise.resolve();
    if (this.failure !== null) return Promise.reject(this.failure);
    if (signal?.aborted) return Promise.reject(signal.reason);
    const wait = new Promise<void>((resolve, reject) => {
      const onAbort = () => reject(signal!.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push({
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        reject: (e) => {
          signal?.removeEventListener('abort', onAbort);
          reject(e);
        },
      });
    });
    this.notifyIdle();
    return wait;
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const w of waiting) {
      if (this.failure !== null && !this.complete) w.reject(this.failure);
      else w.resolve();
    }
    this.notifyIdle();
  }
}
