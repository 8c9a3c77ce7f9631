import { peakLevelDb } from '../../../core/audio/levels';
import { isStoredPcm, pcmPrefix, pcmSlice, type Pcm, type PcmArray } from '../../../core/audio/pcm';
import { SILENT_PEAK_DB } from '../../../core/audio/silence';
import { toSamples, toSeconds } from '../../../core/units';
import { pieceStart, VAD_WINDOW } from '../../models/silero-vad';
import type { Clock, ProgressListener, SpeechDetector } from '../../ports';
import type { SpeechSettings } from '../../stage-settings';

/**
 * Speech probabilities of every channel, scored piece by piece as the channels are decoded. A
 * piece whose peak is below the silence level is not scored (its windows hold no speech).
 */
export class ChannelScoring {
  /** Windows scored so far (the same in every channel). */
  private done = 0;
  private readonly pieces: Float32Array[][] = [];
  /** Seconds spent scoring (loading the model included). */
  seconds = 0;
  /** VAD pieces need at least this many windows (but the last), so that batches stay wide. */
  private readonly minPieceWindows: number;
  /** Where scoring runs beside recognition, the first piece has at most this many windows. */
  private readonly firstPieceWindows: number;

  constructor(
    private readonly detector: Promise<SpeechDetector>,
    private readonly clock: Clock,
    /** The file's length in seconds as declared, for progress (null when unknown). */
    private readonly duration: number | null,
    private readonly onProgress: ProgressListener,
    /** Called after each piece is scored, with the samples scored so far; awaited. */
    private readonly onPiece: (scored: number, detector: SpeechDetector) => Promise<void>,
    settings: SpeechSettings,
    private readonly signal?: AbortSignal,
  ) {
    this.minPieceWindows = Math.round(toSamples(settings.minPieceSeconds) / VAD_WINDOW);
    this.firstPieceWindows = Math.round(toSamples(settings.firstPieceSeconds) / VAD_WINDOW);
  }

  /**
   * Scores what `length` samples of the channels allow (everything when `final`); true if it
   * scored anything.
   */
  async score(channels: readonly Pcm[], length: number, final: boolean): Promise<boolean> {
    const started = this.clock();
    try {
      // Where scoring runs beside recognition, the first piece is short; then one piece takes
      // the rest.
      const first =
        this.done === 0 && (await this.detector).runsApart ? this.firstPieceWindows : Infinity;
      if (!(await this.scorePiece(channels, length, final, first))) return false;
      await this.scorePiece(channels, length, final, Infinity);
      return true;
    } finally {
      this.seconds += this.clock() - started;
    }
  }

  /** Scores up to `limit` more windows (on stream boundaries); true if it scored any. */
  private async scorePiece(
    channels: readonly Pcm[],
    length: number,
    final: boolean,
    limit: number,
  ): Promise<boolean> {
    const detector = await this.detector;
    // Pieces end on the detector's stream boundaries, so that no stream is scored twice.
    const whole = Math.floor(length / VAD_WINDOW);
    const size = detector.streamWindows;
    const grid = (windows: number) =>
      Number.isFinite(size) ? Math.floor(windows / size) * size : this.done;
    let to = final ? Math.ceil(length / VAD_WINDOW) : grid(whole);
    if (Number.isFinite(size) && to - this.done > limit) {
      to = Math.min(to, Math.max(this.done + size, grid(this.done + limit)));
    }
    if (to <= this.done || (!final && to - this.done < this.minPieceWindows)) return false;
    const total = this.duration === null ? null : Math.max(toSamples(this.duration), length);
    for (const [index, channel] of channels.entries()) {
      const samples = pcmPrefix(channel, length);
      // A stored channel is read from its file once: the piece is part of what VAD reads.
      const [readable, offset] = this.readable(detector, samples, to);
      const base = offset.offset ?? 0;
      const piece = readable.subarray(
        (this.done - base) * VAD_WINDOW,
        Math.max(0, (to - base) * VAD_WINDOW),
      );
      // Progress over the whole file: this piece's share of it, channel by channel.
      const report = (fraction: number | null) => {
        const at =
          (this.done + (to - this.done) * ((index + (fraction ?? 0)) / channels.length)) *
          VAD_WINDOW;
        this.onProgress(
          total === null ? null : Math.min(1, at / total),
          `Finding speech: ${Math.floor(toSeconds(at))} s${total === null ? '' : ` of ${Math.round(toSeconds(total))} s`}${channels.length > 1 ? ` (channel ${index + 1} of ${channels.length})` : ''}`,
        );
      };
      report(0);
      (this.pieces[index] ??= []).push(
        peakLevelDb(piece) < SILENT_PEAK_DB
          ? new Float32Array(to - this.done)
          : await detector.probabilities(readable, {
              ...offset,
              from: this.done,
              to,
              ...(this.signal ? { signal: this.signal } : {}),
              onProgress: (fraction) => report(fraction),
            }),
      );
    }
    this.done = to;
    // The time the stage waits on recognition here is not VAD time.
    const handedOver = this.clock();
    await this.onPiece(Math.min(length, to * VAD_WINDOW), detector);
    this.seconds -= this.clock() - handedOver;
    return true;
  }

  /**
   * What the detector reads for windows `done`..`to`: the channel itself when it is in memory,
   * or, when it is kept in a file, the stretch those windows' streams read (their warm-up
   * included), with the window it starts at.
   */
  private readable(
    detector: SpeechDetector,
    samples: Pcm,
    to: number,
  ): [PcmArray, { offset?: number }] {
    if (!isStoredPcm(samples)) return [samples, {}];
    const first = pieceStart(detector, this.done);
    return [pcmSlice(samples, first * VAD_WINDOW, to * VAD_WINDOW), { offset: first }];
  }

  /** A channel's probabilities scored so far (all of them once the final piece is scored). */
  probabilities(index: number): Float32Array {
    const pieces = this.pieces[index] ?? [];
    const all = new Float32Array(pieces.reduce((n, p) => n + p.length, 0));
    let offset = 0;
    for (const p of pieces) {
      all.set(p, offset);
      offset += p.length;
    }
    return all;
  }
}
