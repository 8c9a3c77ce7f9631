import type { TimeSpan } from '../audio/speech-regions';
import { fileTime, speechStreams, type SpeechStream } from '../decoding/speech-streams';
import type { Seconds } from '../units';

/** How a live channel's speech is laid out for the recogniser (the file path's values). */
export interface LiveLayout {
  /** Seconds of context kept around each region. */
  padding: Seconds;
  /** Pauses longer than this are shortened to it. */
  keptPause: Seconds;
  /** Pauses at least this long start a stream of their own (Infinity: never). */
  splitPause: Seconds;
  /** The recogniser's window. */
  windowSeconds: Seconds;
  /** A rest of a stream shorter than this is not worth a decoder pass. */
  minWindowSeconds: Seconds;
}

/** The next stretch of a live channel to decode, and why. */
export interface LiveWork {
  /**
   * `settle`: speech that the pause after it has settled, decoded as a file's window and sent
   * as settled lines; `long`: speech still going on that has run for most of a window, whose
   * finished segments settle; `provisional`: speech still going on, decoded for a first look.
   */
  kind: 'settle' | 'long' | 'provisional';
  /** The speech from the settled point, pauses shortened, in seconds of the recording. */
  stream: SpeechStream;
  /** Seconds of the stream to decode (at most a window). */
  seconds: Seconds;
  /** Whether the stream starts afresh (not the rest of one partly settled). */
  startsStream: boolean;
}

/**
 * What of one channel of a live recording is settled, and what to decode next: its pure
 * bookkeeping, with no model. Everything before `settledAt` is settled (sent as settled lines,
 * or heard as no speech); the speech after it is decoded window by window as pauses settle it,
 * and glanced at while it goes on.
 */
export class LiveProgress {
  /** Seconds of the recording settled. */
  settledAt: Seconds = 0;
  /** Whether `settledAt` lies inside a stream (the rest of a window still to decode). */
  private midStream = false;
  /** Seconds scored when the last provisional (or unfinished long) decode was made. */
  private glancedAt: Seconds | null = null;

  constructor(private readonly layout: LiveLayout) {}

  /**
   * The speech after the settled point laid out as streams: the regions padded, cut at the
   * settled point, long pauses shortened. `until` bounds the padding (the seconds scored).
   */
  streams(regions: readonly TimeSpan[], until: Seconds): SpeechStream[] {
    const { padding, keptPause, splitPause } = this.layout;
    const after = regions
      .map((r) => ({
        start: Math.max(this.settledAt, r.start - padding),
        end: Math.min(until, r.end + padding),
      }))
      .filter((r) => r.end > r.start);
    return speechStreams(after, until, { padding: 0, keptPause, splitPause });
  }

  /**
   * The next work: settled speech first; then speech still going on that has run for
   * `longShare` of a window; then, when `glance` allows it, speech still going on that has
   * grown by `glanceEvery` seconds since it was last looked at. Null when there is none.
   */
  next(
    settled: readonly TimeSpan[],
    all: readonly TimeSpan[],
    scored: Seconds,
    ended: boolean,
    options: { longShare: number; glanceEvery: Seconds; glance: boolean },
  ): LiveWork | null {
    const { windowSeconds } = this.layout;
    const ready = this.streams(settled, scored)[0];
    if (ready) {
      return {
        kind: 'settle',
        stream: ready,
        seconds: Math.min(windowSeconds, ready.length),
        startsStream: !this.midStream,
      };
    }
    if (ended) return null;
    const open = this.streams(all, scored)[0];
    if (!open) return null;
    // Looked at once it has lasted `glanceEvery`, then each time it has grown by as much.
    const grown =
      this.glancedAt === null
        ? open.length >= options.glanceEvery
        : scored - this.glancedAt >= options.glanceEvery;
    if (open.length >= options.longShare * windowSeconds && grown) {
      return {
        kind: 'long',
        stream: open,
        seconds: Math.min(windowSeconds, open.length),
        startsStream: !this.midStream,
      };
    }
    if (options.glance && grown) {
      return {
        kind: 'provisional',
        stream: open,
        seconds: Math.min(windowSeconds, open.length),
        startsStream: !this.midStream,
      };
    }
    return null;
  }

  /** Whether speech after the settled point is still going on (or not yet settled). */
  hasOpenSpeech(all: readonly TimeSpan[], scored: Seconds): boolean {
    return this.streams(all, scored).length > 0;
  }

  /** A glance at speech going on was made with `scored` seconds scored. */
  glanced(scored: Seconds): void {
    this.glancedAt = scored;
  }

  /**
   * A window of `work` was decoded and its segments settled up to `consumed` seconds of the
   * stream: the settled point moves there (to the stream's end when what is left is too short
   * to decode).
   */
  settle(work: LiveWork, consumed: Seconds, scored: Seconds): void {
    const { stream } = work;
    const left = stream.length - consumed;
    if (left < this.layout.minWindowSeconds) {
      this.settledAt = Math.max(this.settledAt, stream.pieces.at(-1)!.fileEnd);
      this.midStream = false;
    } else {
      this.settledAt = Math.max(this.settledAt, fileTime(stream, consumed));
      this.midStream = true;
    }
    this.glancedAt = work.kind === 'settle' ? null : scored;
  }

  /**
   * The first sample time still needed for decoding: the start of the first speech after the
   * settled point (with its padding), or where speech could still start.
   */
  neededFrom(all: readonly TimeSpan[], scored: Seconds): Seconds {
    const first = this.streams(all, scored)[0]?.pieces[0]?.fileStart;
    // A region is found only once it has lasted a quarter of a second, and starts where it
    // began, padded: a second back from the scored end is where one not found yet can start.
    return Math.max(this.settledAt, Math.min(first ?? Infinity, scored - 1));
  }
}
