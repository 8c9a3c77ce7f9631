import type { RecognisedSegment } from '../../../core/assemble/response';
import { seededRandom } from '../../../core/decoding/probabilities';
import { comparedWords } from '../../../core/decoding/repetition';
import { toSamples, toSeconds } from '../../../core/units';
import type { Tensor } from '../../models/transformers-port';
import type { LoadedWhisper } from '../../ports';
import type { RecognitionSettings } from '../../stage-settings';
import { isNoSpeech, isSure, type WindowDecode } from './decode-window';
import { EarlierTextDecoder } from './earlier-text';
import { detectLanguage, encodeWindow, likeliest, type EncodedWindow } from './language-detection';
import { RepeatGuard } from './repeat-guard';
import { windowSegments } from './window-segments';

export interface WindowDecoderOptions {
  /** The channel decoded (its segments' `channel`, and the seed of its sampling). */
  channel: number;
  hint: string;
  task: 'transcribe' | 'translate';
  settings: RecognitionSettings;
  signal?: AbortSignal;
}

/** One window to decode: its audio, encoded, and what the caller knows of it. */
export interface WindowToDecode {
  encoded: Tensor;
  /** The window's samples (heard once more where `levelOnly`). */
  audio: Float32Array;
  /** Seconds of the window's speech without its shortened pauses. */
  speechSeconds: number;
  language: string;
  /** Only loud stretches VAD heard no voice in: written only where the rules are sure of it. */
  levelOnly?: boolean;
  /** Told the tokens sampled so far as each segment closes (a first look, nothing hangs on it). */
  onSampled?: (sampled: readonly number[]) => void;
  /**
   * Cut where the speech pauses, and decoded whole: its segments account for all of it, and
   * text after its last timestamp runs to its end (windows decoded together: `decodeBatch`).
   */
  whole?: boolean;
  /**
   * Cut short where the speech pauses, where a whole model window would have gone on (a
   * channel's first window, for its words to come early): its segments account for it up to
   * the last one's end, so that speech the decoder leaves out at such an end (models do, more
   * where the audio stops) is heard again by the next window.
   */
  cutShort?: boolean;
}

/** What a window says, by the rules, before the repeat guard. */
export interface HeardWindow {
  decode: WindowDecode;
  /** False where the rules heard no speech: nothing of it is kept, nor learnt from. */
  speech: boolean;
  /** Its segments in window time (0 at its start): none where the rules heard no speech. */
  segments: RecognisedSegment[];
  /** Its text tokens, to condition the next window on. */
  textTokens: number[];
  /** Seconds of the window its segments account for: the whole window where they say nothing. */
  consumed: number;
}

/**
 * A channel's window decoder: what one window of its audio says, by the recognition stage's
 * rules (language detection, Whisper's timestamps and word times, temperature fallbacks with
 * earlier text, the no-speech rule, the repeat guard across windows). Files
 * (`transcribe-channel.ts`) and live captions (`live/live-transcriber.ts`) each decide what to
 * decode when; this decides what a window says, the same for both.
 */
export class WindowDecoder {
  private readonly decoder: EarlierTextDecoder;
  private readonly guard: RepeatGuard;

  constructor(
    readonly model: LoadedWhisper,
    private readonly options: WindowDecoderOptions,
  ) {
    const { hint, settings, signal, channel } = options;
    this.decoder = new EarlierTextDecoder(model, hint, seededRandom(channel + 1), settings, signal);
    this.guard = new RepeatGuard(settings);
  }

  /** The window's samples through the model's encoder. */
  encode(audio: Float32Array): Promise<EncodedWindow> {
    return encodeWindow(this.model, audio);
  }

  /** The likeliest language of a window. */
  async language(window: EncodedWindow): Promise<string> {
    return likeliest(await detectLanguage(this.model, window, this.options.signal));
  }

  /** A stream in another language starts afresh: earlier text in another language misleads. */
  startStream(language: string): void {
    this.decoder.startStream(language);
  }

  /**
   * One greedy pass without earlier text, nothing learnt from it: the text of speech still
   * going on, or '' where the rules hear no speech.
   */
  async glance(encoded: Tensor, seconds: number, language: string): Promise<string> {
    const glance = await this.decoder.glance(encoded, seconds, language, this.options.task);
    return isNoSpeech(glance, this.options.settings.fallback) ? '' : this.text(glance);
  }

  /** The text of a decode's tokens. */
  text(decode: WindowDecode): string {
    const { model } = this;
    return model.decodeText(decode.sampled.filter((t) => t < model.vocab.endOfText)).trim();
  }

  /** Decodes a window with the rules (see `HeardWindow`); nothing is kept yet (`keep`). */
  async decode(window: WindowToDecode): Promise<HeardWindow> {
    const { task } = this.options;
    const { encoded, audio, speechSeconds, language } = window;
    const levelOnly = window.levelOnly === true;
    const seconds = toSeconds(audio.length);
    const decode = await this.decoder.decode(
      encoded,
      seconds,
      speechSeconds,
      language,
      task,
      levelOnly,
      window.onSampled,
    );
    return this.heard(window, decode);
  }

  /**
   * Windows of speech (not `levelOnly`) decoded together, without earlier text
   * (`EarlierTextDecoder.decodeBatch`): what each says, in order, as `decode` would say it of
   * a window without earlier text. Nothing is kept yet (`keep`, window by window, in order).
   */
  async decodeBatch(windows: readonly WindowToDecode[]): Promise<HeardWindow[]> {
    const decodes = await this.decoder.decodeBatch(
      windows.map(({ encoded, audio, language }) => ({
        encoded,
        seconds: toSeconds(audio.length),
        language,
      })),
      this.options.task,
    );
    const heard: HeardWindow[] = [];
    for (const [i, window] of windows.entries()) heard.push(await this.heard(window, decodes[i]!));
    return heard;
  }

  /** What a window's decode says by the rules (see `HeardWindow`). */
  private async heard(window: WindowToDecode, decode: WindowDecode): Promise<HeardWindow> {
    const { model, options } = this;
    const { settings, task } = options;
    const { language } = window;
    const levelOnly = window.levelOnly === true;
    const seconds = toSeconds(window.audio.length);
    const silent = { decode, speech: false, segments: [], textTokens: [], consumed: seconds };
    if (isNoSpeech(decode, settings.fallback)) return silent;
    // What VAD heard no voice in is written only where the decoding rules are sure of it.
    if (levelOnly && !(isSure(decode, settings.fallback) && (await this.insists(window, decode))))
      return silent;
    const whole = window.whole === true;
    const found = windowSegments(
      model,
      // A window decoded whole keeps text cut off at its end: nothing of it is decoded again.
      whole ? { ...decode, finished: true } : decode,
      seconds,
      task === 'translate' ? 'en' : language,
      options.channel,
      (t) => t,
    );
    const reached = window.cutShort
      ? Math.min(found.consumed, found.segments.at(-1)?.end ?? seconds)
      : found.consumed;
    const consumed = whole || reached <= settings.minWindowSeconds ? seconds : reached;
    const { segments, textTokens } = found;
    return { decode, speech: true, segments, textTokens, consumed };
  }

  /**
   * Keeps a window's segments (those of `heard`, or the part of them the caller settles, on
   * the file's time): what the repeat guard lets through is returned, and `textTokens` become
   * the earlier text of the next window (not for loud stretches: they come after the speech,
   * out of order). Nothing of a window without speech.
   */
  keep(
    heard: HeardWindow,
    segments: readonly RecognisedSegment[],
    textTokens: readonly number[],
    levelOnly = false,
  ): RecognisedSegment[] {
    if (!heard.speech) return [];
    const kept = this.guard.check(segments, heard.decode, levelOnly);
    if (!levelOnly) this.decoder.accept(heard.decode, textTokens);
    return kept;
  }

  /**
   * Whether the recogniser says the same again when a window it was sure of is heard a quarter
   * of a second later (for loud stretches VAD heard no voice in). Speech is heard as the same
   * words however the window falls on it; words read into music or noise mostly change with it
   * (not always: docs/benchmarks.md, "Speech under music").
   */
  private async insists(window: WindowToDecode, first: WindowDecode): Promise<boolean> {
    const { model, options } = this;
    const { settings } = options;
    const shift = toSamples(settings.secondHearingShiftSeconds);
    if (window.audio.length - shift < toSamples(settings.minLevelTailSeconds)) return false;
    const later = window.audio.subarray(shift);
    const { encoded } = await encodeWindow(model, later);
    const seconds = toSeconds(later.length);
    const again = await this.decoder.decode(
      encoded,
      seconds,
      window.speechSeconds,
      window.language,
      options.task,
      true,
    );
    const text = (d: WindowDecode) =>
      comparedWords(model.decodeText(d.sampled.filter((t) => t < model.vocab.endOfText)));
    const a = new Set(text(first));
    const b = new Set(text(again));
    if (a.size === 0) return false;
    const shared = [...a].filter((w) => b.has(w)).length;
    return shared >= settings.insistedWordShare * Math.max(a.size, b.size);
  }
}

/** A segment in window or stream time, on another timeline (`at` maps each time). */
export function segmentAt(
  segment: RecognisedSegment,
  at: (t: number) => number,
): RecognisedSegment {
  return {
    ...segment,
    start: at(segment.start),
    end: at(segment.end),
    words: segment.words.map((w) => ({ ...w, start: at(w.start), end: at(w.end) })),
  };
}
