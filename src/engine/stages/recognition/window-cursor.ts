import {
  speechStreams,
  streamAudio,
  type SpeechStream,
  type StreamAudio,
} from '../../../core/decoding/speech-streams';
import { SAMPLE_RATE, toSamples } from '../../../core/units';
import type { RecognitionSettings } from '../../stage-settings';
import type { GrowingChannel } from '../../streams/growing-channel';
import { firstWindowCut } from './window-cut';

/** Streams of speech to recognise: one for the whole channel, or one per turn when languages switch. */
export function channelStreams(
  speech: GrowingChannel['speech'],
  duration: number,
  perTurn: boolean,
  settings: RecognitionSettings,
): SpeechStream[] {
  return speechStreams(speech, duration, {
    padding: settings.streamPaddingSeconds,
    keptPause: settings.keptPauseSeconds,
    splitPause: perTurn ? settings.turnPauseSeconds : Infinity,
  });
}

/** The next window of a channel's speech streams. */
export interface SpeechWindow {
  stream: SpeechStream;
  /** Which stream of the channel (0-based). */
  streamIndex: number;
  /** Samples into the stream's audio. */
  seek: number;
  audio: Float32Array;
  /** Cut short where the speech pauses (the channel's first window, `earlyStart`). */
  cutShort?: boolean;
}

/**
 * Walks a channel's speech streams window by window. The channel may still be growing: a
 * window is handed out only once all of its audio is settled, so the windows are the same as
 * when the whole channel is known from the start. Only each window's audio is copied out of
 * the channel: a stream can be hours long.
 */
export class WindowCursor {
  private index = 0;
  private seek = 0;

  constructor(
    private readonly channel: GrowingChannel,
    private readonly windowSamples: number,
    /** The file's length in seconds (the channel is clipped to it once complete). */
    private readonly duration: number,
    private readonly perTurn: boolean,
    private readonly settings: RecognitionSettings,
    /**
     * Whether the first window is cut short where the speech pauses (within
     * `settings.firstWindowSeconds`), so that the first words are decoded before a whole
     * model window of speech is known.
     */
    private readonly earlyStart = false,
  ) {}

  /** The streams known so far. */
  streams(): SpeechStream[] {
    const { channel } = this;
    // Settled regions end well before the audio decoded so far, so clipping them to the file's
    // length matters only once it is known.
    const end = channel.complete ? Math.min(this.duration, channel.duration) : Infinity;
    return channelStreams(channel.speech, end, this.perTurn, this.settings);
  }

  /** The audio of the streams known so far, read when asked. */
  streamAudio(): StreamAudio[] {
    return this.streams().map((stream) => streamAudio(stream, this.channel.samples, SAMPLE_RATE));
  }

  /** The next window; 'wait' until more of the channel is known; 'end' after the last one. */
  next(): SpeechWindow | 'wait' | 'end' {
    for (;;) {
      const streams = this.streams();
      const stream = streams[this.index];
      // The last stream can still grow (and more can follow) until the channel is complete.
      const open = !this.channel.complete && this.index >= streams.length - 1;
      if (stream === undefined) return open ? 'wait' : 'end';
      const audio = streamAudio(stream, this.channel.samples, SAMPLE_RATE);
      const left = audio.length - this.seek;
      if (this.earlyStart && this.index === 0 && this.seek === 0) {
        const early = this.firstWindow(stream, open);
        if (early === 'wait') return 'wait';
        if (early !== null) {
          return { stream, streamIndex: 0, seek: 0, audio: audio.read(0, early), cutShort: true };
        }
      }
      if (open && left < this.windowSamples) return 'wait';
      if (left < toSamples(this.settings.minWindowSeconds)) {
        this.index++;
        this.seek = 0;
        continue;
      }
      return {
        stream,
        streamIndex: this.index,
        seek: this.seek,
        audio: audio.read(this.seek, this.seek + this.windowSamples),
      };
    }
  }

  /** The samples of the first window cut short; null where it is not (no pause to cut at). */
  private firstWindow(stream: SpeechStream, open: boolean): number | 'wait' | null {
    const { firstWindowSeconds, firstWindowMinSeconds, keptPauseSeconds } = this.settings;
    if (firstWindowSeconds <= 0) return null;
    // A pause found later would move the cut: it is made once the stream is known that far.
    if (open && stream.length < firstWindowSeconds) return 'wait';
    const cut = firstWindowCut(stream, firstWindowMinSeconds, firstWindowSeconds, keptPauseSeconds);
    return cut === null ? null : toSamples(cut);
  }

  /** Moves on by the seconds the last window's segments accounted for. */
  advance(seconds: number): void {
    this.seek += toSamples(seconds);
  }
}
