import type { LoadedWhisper } from '../../ports';
import type { Tensor } from '../../models/transformers-port';
import type { RecognitionSettings } from '../../stage-settings';
import { decodeBatch } from './decode-batch';
import { decodeWindow, isNoSpeech, type WindowDecode } from './decode-window';

/**
 * Tokens a window may take: Whisper's half context, but no more than fast speech needs (the
 * settings' `tokensPerSecond` and `extraTokens`), so that a repetition loop in a short window
 * is cut early instead of running to the limit at every fallback temperature.
 */
function tokenBudget(model: LoadedWhisper, seconds: number, settings: RecognitionSettings): number {
  return Math.min(
    Math.floor(model.maxTargetPositions / 2),
    Math.ceil(seconds * settings.tokensPerSecond) + settings.extraTokens,
  );
}

/**
 * Whether the decoder is shown the text decoded before each window (Whisper's conditioning).
 * It is tried, not assumed: the first window that has earlier text is decoded with and without
 * it, and the surer decode decides. Conditioning stays on while decodes with earlier text keep
 * being chosen; once one loses (a doubtful or failed decode beaten by the same window without
 * the text, or a window the text silenced), the rest of the channel is decoded without it. A
 * model that reads its earlier text well is surer with it, and keeps it. One that does not
 * pays twice for every window otherwise: the test model, shown earlier text, lost words
 * (a Spanish sentence heard as 4 of its 8 words, at -0.36 against -0.19 without the text) or
 * looped and was decoded again, 2-3 times as slow over a 400-s recording.
 */
type Conditioning = 'untried' | 'kept' | 'dropped';

/**
 * Decodes the windows of one channel in turn with the user's hint and the text decoded before
 * (Whisper's prompt), keeping what conditioning on earlier text has shown about this channel.
 */
export class EarlierTextDecoder {
  private previous: number[] = [];
  private previousLanguage: string | null = null;
  private conditioning: Conditioning = 'untried';
  /** Prompt room left for earlier text once the hint is in. */
  private readonly room: number;
  private readonly hintTokens: number[];

  constructor(
    private readonly model: LoadedWhisper,
    hint: string,
    private readonly random: () => number,
    private readonly settings: RecognitionSettings,
    private readonly signal?: AbortSignal,
  ) {
    const promptRoom = Math.floor(model.maxTargetPositions / 2) - 1;
    // Whisper's rule: the prompt fills at most half the decoder's context, its newest tokens
    // kept; the hint stays whole where it fits and the earlier text fills what it leaves.
    this.hintTokens = hint ? model.encodeText(` ${hint.trim()}`).slice(-promptRoom) : [];
    this.room = Math.max(0, promptRoom - this.hintTokens.length);
  }

  /** A stream in another language starts afresh: earlier text in another language misleads. */
  startStream(language: string): void {
    if (language !== this.previousLanguage) this.previous = [];
    this.previousLanguage = language;
  }

  /**
   * One window, with Whisper's fallbacks (decode-window.ts). `speechSeconds` is the window's
   * speech without its shortened pauses. A window where VAD heard no voice (`levelOnly`: only
   * loud stretches it rejected) is decoded once, greedily and without the earlier text: the
   * fallbacks exist to rescue speech known to be there, and over music or noise a sampled
   * decode that passes, or earlier text carried on, is how text gets invented.
   * `onClosedSegment` is told the tokens sampled so far as each segment closes, in every
   * attempt (decode-window.ts).
   */
  async decode(
    encoded: Tensor,
    seconds: number,
    speechSeconds: number,
    language: string,
    task: 'transcribe' | 'translate',
    levelOnly = false,
    onClosedSegment?: (sampled: readonly number[]) => void,
  ): Promise<WindowDecode> {
    if (levelOnly) return this.glance(encoded, seconds, language, task);
    // slice(-0) would be the whole array: a hint that fills the room leaves none for context
    const earlier =
      this.room > 0 && this.conditioning !== 'dropped' ? this.previous.slice(-this.room) : [];
    const decodeWith = (context: readonly number[]) =>
      decodeWindow(this.model, encoded, seconds, {
        language,
        task,
        hintTokens: this.hintTokens,
        contextTokens: context,
        temperatures: this.settings.temperatures,
        fallback: this.settings.fallback,
        // untried: every decode shown the earlier text is compared with one without it
        contextDoubt: this.conditioning === 'untried' ? 0 : this.settings.contextDoubt,
        maxNewTokens: tokenBudget(this.model, seconds, this.settings),
        random: this.random,
        ...(this.signal ? { signal: this.signal } : {}),
        ...(onClosedSegment ? { onClosedSegment } : {}),
      });
    let decode = await decodeWith(earlier);
    // A window of speech (every window here holds some) that the model ends almost at once,
    // with a word or none and without calling it silence, when shown the earlier text: the
    // context, not the audio, stopped it (conditioning's known failure; the test model skipped
    // everything after its second window of a 74-s talk, and another time heard a 10-word
    // sentence as "i" and the next one not at all). Once more without the earlier text.
    const textTokens = decode.sampled.filter((t) => t < this.model.vocab.endOfText).length;
    const scant =
      textTokens === 0 || textTokens < speechSeconds * this.settings.minTextTokensPerSpeechSecond;
    if (earlier.length > 0 && scant && !isNoSpeech(decode, this.settings.fallback)) {
      decode = await decodeWith([]);
    }
    if (earlier.length > 0) this.conditioning = decode.conditioned ? 'kept' : 'dropped';
    return decode;
  }

  /**
   * Windows decoded together, without earlier text (a window in a batch cannot be shown the
   * text of the one before it, decoded at the same time): the greedy first attempt of them all
   * as the rows of one batch (decode-batch.ts), then, window by window and alone, the
   * fallbacks that attempt calls for, by the same rules as `decode`. Nothing is learnt from
   * them here: conditioning stays as it was.
   */
  async decodeBatch(
    windows: readonly { encoded: Tensor; seconds: number; language: string }[],
    task: 'transcribe' | 'translate',
  ): Promise<WindowDecode[]> {
    const { model, settings } = this;
    const maxNewTokens = (seconds: number) => tokenBudget(model, seconds, settings);
    // The batch decodes greedily: a first temperature above 0 is sampled window by window.
    const first =
      settings.temperatures[0] === 0
        ? await decodeBatch(
            model,
            windows.map((w) => ({ ...w, maxNewTokens: maxNewTokens(w.seconds) })),
            { task, hintTokens: this.hintTokens, ...(this.signal ? { signal: this.signal } : {}) },
          )
        : [];
    const decodes: WindowDecode[] = [];
    for (const [i, window] of windows.entries()) {
      const firstAttempt = first[i];
      decodes.push(
        await decodeWindow(model, window.encoded, window.seconds, {
          language: window.language,
          task,
          hintTokens: this.hintTokens,
          contextTokens: [],
          temperatures: settings.temperatures,
          fallback: settings.fallback,
          contextDoubt: settings.contextDoubt,
          maxNewTokens: maxNewTokens(window.seconds),
          random: this.random,
          ...(this.signal ? { signal: this.signal } : {}),
          ...(firstAttempt ? { firstAttempt } : {}),
        }),
      );
    }
    return decodes;
  }

  /**
   * One greedy pass with the hint but without the earlier text, whose failure is not retried,
   * and nothing learnt from it: a first look at speech still going on (live captions), or at a
   * loud stretch VAD rejected (out of order, so the earlier text is no context for it).
   */
  glance(
    encoded: Tensor,
    seconds: number,
    language: string,
    task: 'transcribe' | 'translate',
  ): Promise<WindowDecode> {
    return decodeWindow(this.model, encoded, seconds, {
      language,
      task,
      hintTokens: this.hintTokens,
      contextTokens: [],
      temperatures: [0],
      fallback: this.settings.fallback,
      contextDoubt: this.settings.contextDoubt,
      maxNewTokens: tokenBudget(this.model, seconds, this.settings),
      random: this.random,
      ...(this.signal ? { signal: this.signal } : {}),
    });
  }

  /** The text tokens a decode gave, as earlier text for the next window. */
  accept(decode: WindowDecode, textTokens: readonly number[]): void {
    // A high-temperature decode is not trusted as context (Whisper's rule).
    this.previous =
      decode.temperature > this.settings.maxContextTemperature
        ? []
        : [...this.previous, ...textTokens];
  }
}
