import type { RecognisedSegment } from '../../core/assemble/response';
import type { LanguageBehaviour } from '../../core/contract/request';
import { languageProbabilities, seededRandom } from '../../core/decoding/probabilities';
import {
  fileTime,
  speechStreams,
  streamSamples,
  unpausedSeconds,
  type SpeechStream,
} from '../../core/decoding/speech-streams';
import { completeChannel, type GrowingChannel } from '../media/growing-channel';
import type { ChannelAudio, SpeechRegion } from '../media/prepared-audio';
import { SAMPLE_RATE } from '../media/prepared-audio';
import { decodeWindow, isNoSpeech } from './decode-window';
import type { LoadedWhisper } from './whisper-model';
import type { Tensor } from './transformers-port';
import { windowSegments } from './window-segments';

export interface RecognitionOptions {
  languageBehaviour: LanguageBehaviour;
  /** The language for `manual`. */
  language: string | null;
  task: 'transcribe' | 'translate';
  hint: string;
  onSegment?: (segment: RecognisedSegment) => void;
  /** Called as each window's recognition starts (before language detection or encoding). */
  onWindow?: () => void;
  /** Seconds of the channel's speech streams recognised so far, and the file time reached. */
  onAdvance?: (seconds: number, fileSeconds: number) => void;
  signal?: AbortSignal;
  /** Benchmarks only: tokens decoded per second of speech, with generated weights. */
  forcedTokensPerSecond?: number;
}

const TEMPERATURES = [0, 0.2, 0.4, 0.6, 0.8, 1];

/**
 * Tokens a window may take: Whisper's half context, but no more than fast speech needs (about
 * 8 text tokens a second plus timestamps), so that a repetition loop in a short window is cut
 * early instead of running to the limit at every fallback temperature.
 */
function tokenBudget(model: LoadedWhisper, seconds: number): number {
  return Math.min(Math.floor(model.maxTargetPositions / 2), Math.ceil(seconds * 15) + 16);
}
/** A window with less audio than this is not worth a decoder pass. */
const MIN_WINDOW_SECONDS = 0.1;
/**
 * Fewer text tokens than this per second of speech in a window is not a transcript of it:
 * speech runs at 2-5 tokens a second. A false alarm costs one more decode, whose result
 * (without the earlier text) is as valid as the first. The seconds are the window's own (its
 * shortened pauses left out), not a share of the channel's speech: that share changes as more
 * of a growing channel is known, and the decision with it.
 */
const MIN_TEXT_TOKENS_PER_SPEECH_SECOND = 0.5;

/** Pauses in a stream are shortened to this (seconds). */
const KEPT_PAUSE = 0.5;

/** Streams of speech to recognise: one for the whole channel, or one per turn when languages switch. */
export function channelStreams(
  speech: readonly SpeechRegion[],
  duration: number,
  perTurn: boolean,
): SpeechStream[] {
  return speechStreams(speech, duration, {
    padding: 0.2,
    keptPause: KEPT_PAUSE,
    splitPause: perTurn ? 1 : Infinity,
  });
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

/** A window's encoder output, kept when the same window is decoded next. */
interface EncodedWindow {
  audio: Float32Array;
  encoded: Tensor;
}

async function encodeWindow(model: LoadedWhisper, audio: Float32Array): Promise<EncodedWindow> {
  return { audio, encoded: await model.encode(await model.features(audio)) };
}

async function detectLanguage(
  model: LoadedWhisper,
  window: EncodedWindow,
  signal?: AbortSignal,
): Promise<Map<string, number>> {
  signal?.throwIfAborted();
  const step = await model.step(window.encoded, [model.vocab.startOfTranscript], null);
  model.releasePast(step.past);
  return languageProbabilities(step.lastLogits, model.vocab.languages);
}

function best(probabilities: Map<string, number>): string {
  let code = 'en';
  let p = -1;
  for (const [c, q] of probabilities) if (q > p) [code, p] = [c, q];
  return code;
}

/** A window whose language probabilities were read. */
interface DetectedWindow {
  window: EncodedWindow;
  probabilities: Map<string, number>;
}

/**
 * The prominent language of the speech: language probabilities of up to three windows spread
 * over the speech (start, middle, end), weighted by the seconds of speech each holds. The
 * first window's encoding is returned for the decoding that starts there; `known` is that
 * window already detected (its audio does not change as the channel grows).
 */
export async function prominentLanguage(
  model: LoadedWhisper,
  streams: readonly { audio: Float32Array }[],
  signal?: AbortSignal,
  known?: DetectedWindow,
): Promise<{ language: string; first: EncodedWindow | null }> {
  const windowLength = model.windowSamples;
  const total = streams.reduce((n, s) => n + s.audio.length, 0);
  if (total === 0) return { language: 'en', first: null };
  const picks = total <= windowLength ? [0] : [0, 0.5, 1].map((f) => f * (total - windowLength));
  const sums = new Map<string, number>();
  let first: EncodedWindow | null = null;
  for (const pick of [...new Set(picks.map((p) => Math.round(p)))]) {
    // Find the stream and offset that the pick falls in.
    let offset = pick;
    const stream = streams.find((s) => {
      if (offset < s.audio.length) return true;
      offset -= s.audio.length;
      return false;
    });
    if (!stream) continue;
    const audio = stream.audio.subarray(offset, offset + windowLength);
    const reuse = pick === 0 && known?.window.audio.length === audio.length;
    const window = reuse ? known.window : await encodeWindow(model, audio);
    if (pick === 0) first = window;
    const probabilities = reuse ? known.probabilities : await detectLanguage(model, window, signal);
    const weight = window.audio.length;
    for (const [code, p] of probabilities) sums.set(code, (sums.get(code) ?? 0) + p * weight);
  }
  return { language: best(sums), first };
}

/**
 * Recognises one channel: speech streams cut into model windows, each decoded with Whisper's
 * rules, the seek moving on by what each window's segments account for. Segments are reported
 * as they are decoded.
 *
 * The channel may still be growing (see `GrowingChannel`): a window is decoded once all of its
 * audio is settled, so the result is the same as when the whole channel is known at the start.
 * `automatic single language` needs all of the speech to choose its language: meanwhile it
 * decodes in the first window's language and holds its segments back; once the speech is all
 * found, they are posted if that is the prominent language, or decoding starts over in it.
 */
export async function transcribeChannel(
  model: LoadedWhisper,
  input: ChannelAudio | GrowingChannel,
  duration: number,
  options: RecognitionOptions,
): Promise<RecognisedSegment[]> {
  const channel = 'complete' in input ? input : completeChannel(input);
  const { signal } = options;
  const perTurn = options.languageBehaviour === 'automatic multiple languages';
  // Settled regions end well before the audio decoded so far, so clipping them to the file's
  // length matters only once it is known.
  const layout = () =>
    channelStreams(
      channel.speech,
      channel.complete ? Math.min(duration, channel.duration) : Infinity,
      perTurn,
    );

  let fixedLanguage: string | null =
    options.languageBehaviour === 'manual' ? options.language : null;
  // A window encoded for language detection and decoded next is encoded once.
  let ready: EncodedWindow | null = null;
  // The stream being recognised and its audio as far as it is known.
  let current: { stream: SpeechStream; audio: Float32Array } | null = null;
  const known = () =>
    layout().map((stream) => ({
      stream,
      audio: streamSamples(stream, channel.samples, SAMPLE_RATE),
    }));
  // `automatic single language` on a growing channel: the first window, detected ahead.
  let guess: DetectedWindow | null = null;
  if (options.languageBehaviour === 'automatic single language') {
    const firstWindowSettled = () =>
      Math.round((layout()[0]?.length ?? 0) * SAMPLE_RATE) >= model.windowSamples;
    while (!channel.complete && !firstWindowSettled()) await channel.changed(signal);
    options.onWindow?.();
    const streams = known();
    current = streams[0] ?? null;
    if (channel.complete) {
      const prominent = await prominentLanguage(model, streams, signal);
      fixedLanguage = prominent.language;
      ready = prominent.first;
    } else {
      ready = await encodeWindow(model, current!.audio.subarray(0, model.windowSamples));
      guess = { window: ready, probabilities: await detectLanguage(model, ready, signal) };
      fixedLanguage = best(guess.probabilities);
    }
  }

  const promptRoom = Math.floor(model.maxTargetPositions / 2) - 1;
  // Whisper's rule: the prompt fills at most half the decoder's context, its newest tokens kept;
  // the hint stays whole where it fits and the earlier text fills what it leaves.
  const hintTokens = options.hint
    ? model.encodeText(` ${options.hint.trim()}`).slice(-promptRoom)
    : [];
  let random = seededRandom(channel.index + 1);
  const segments: RecognisedSegment[] = [];
  // Segments decoded in a guessed language, posted once it is confirmed.
  let held: RecognisedSegment[] = [];
  let previous: number[] = [];
  let previousLanguage: string | null = null;
  let conditioning: Conditioning = 'untried';
  let done = 0;

  let index = 0;
  let seek = 0;
  let language: string | null = null;
  for (;;) {
    signal?.throwIfAborted();
    channel.throwIfFailed();
    if (guess !== null && channel.complete) {
      const streams = known();
      const prominent = await prominentLanguage(model, streams, signal, guess);
      guess = null;
      if (prominent.language === fixedLanguage) {
        for (const segment of held) options.onSegment?.(segment);
      } else {
        // The guess was wrong: everything again, as if the language had been known at first.
        fixedLanguage = prominent.language;
        ready = prominent.first;
        current = streams[0] ?? null;
        random = seededRandom(channel.index + 1);
        segments.length = 0;
        previous = [];
        previousLanguage = null;
        conditioning = 'untried';
        done = 0;
        index = 0;
        seek = 0;
      }
      held = [];
    }
    const streams = layout();
    const stream = streams[index];
    // The last stream can still grow (and more can follow) until the channel is complete.
    const open = !channel.complete && index >= streams.length - 1;
    if (stream === undefined) {
      if (!open) break;
      await channel.changed(signal);
      continue;
    }
    if (current?.stream.length !== stream.length) {
      current = { stream, audio: streamSamples(stream, channel.samples, SAMPLE_RATE) };
    }
    const { audio } = current;
    const left = audio.length - seek;
    if (open && left < model.windowSamples) {
      await channel.changed(signal);
      continue;
    }
    if (left < MIN_WINDOW_SECONDS * SAMPLE_RATE) {
      index++;
      seek = 0;
      current = null;
      ready = null;
      continue;
    }
    options.onWindow?.();
    if (seek === 0) {
      language = fixedLanguage;
      if (language === null) {
        signal?.throwIfAborted();
        ready = await encodeWindow(model, audio.subarray(0, model.windowSamples));
        language = best(await detectLanguage(model, ready, signal));
      }
      if (language !== previousLanguage) previous = [];
      previousLanguage = language;
    }
    const decodeLanguage = language ?? 'en';

    const window = audio.subarray(seek, seek + model.windowSamples);
    const seconds = window.length / SAMPLE_RATE;
    // Every window encoded ahead is the start of the stream in hand (stream 0 for the
    // prominent language); a stream's start never changes as the channel grows.
    const sameWindow = ready !== null && seek === 0 && ready.audio.length === window.length;
    const { encoded } = sameWindow ? ready! : await encodeWindow(model, window);
    ready = null;
    const room = Math.max(0, promptRoom - hintTokens.length);
    // slice(-0) would be the whole array: a hint that fills the room leaves none for context
    const earlier = room > 0 && conditioning !== 'dropped' ? previous.slice(-room) : [];
    const decodeWith = (context: readonly number[]) =>
      decodeWindow(model, encoded, seconds, {
        language: decodeLanguage,
        task: options.task,
        hintTokens,
        contextTokens: context,
        temperatures: TEMPERATURES,
        // untried: every decode shown the earlier text is compared with one without it
        contextDoubt: conditioning === 'untried' ? 0 : undefined,
        maxNewTokens: tokenBudget(model, seconds),
        random,
        forcedTokenCount:
          options.forcedTokensPerSecond === undefined
            ? undefined
            : Math.max(
                1,
                Math.round(options.forcedTokensPerSecond * seconds * speechShare(channel, streams)),
              ),
        signal,
      });
    let decode = await decodeWith(earlier);
    // A window of speech (every window here holds some) that the model ends almost at once,
    // with a word or none and without calling it silence, when shown the earlier text: the
    // context, not the audio, stopped it (conditioning's known failure; the test model skipped
    // everything after its second window of a 74-s talk, and another time heard a 10-word
    // sentence as "i" and the next one not at all). Once more without the earlier text.
    const textTokens = decode.sampled.filter((t) => t < model.vocab.endOfText).length;
    const offset = seek / SAMPLE_RATE;
    const speechSeconds = unpausedSeconds(stream, offset, offset + seconds, KEPT_PAUSE);
    const scant =
      textTokens === 0 || textTokens < speechSeconds * MIN_TEXT_TOKENS_PER_SPEECH_SECOND;
    if (
      earlier.length > 0 &&
      scant &&
      !isNoSpeech(decode) &&
      options.forcedTokensPerSecond === undefined
    ) {
      decode = await decodeWith([]);
    }
    if (earlier.length > 0 && options.forcedTokensPerSecond === undefined) {
      conditioning = decode.conditioned ? 'kept' : 'dropped';
    }
    let consumed = seconds;
    if (!isNoSpeech(decode)) {
      const result = windowSegments(
        model,
        decode,
        seconds,
        options.task === 'translate' ? 'en' : decodeLanguage,
        channel.index,
        (t) => fileTime(stream, offset + t),
      );
      for (const segment of result.segments) {
        segments.push(segment);
        if (guess === null) options.onSegment?.(segment);
        else held.push(segment);
      }
      // A high-temperature decode is not trusted as context (Whisper's rule).
      previous = decode.temperature > 0.5 ? [] : [...previous, ...result.textTokens];
      // Generated benchmark weights place timestamps at random: take the whole window.
      if (result.consumed > MIN_WINDOW_SECONDS && options.forcedTokensPerSecond === undefined) {
        consumed = result.consumed;
      }
    }
    seek += Math.round(consumed * SAMPLE_RATE);
    done += consumed;
    options.onAdvance?.(done, fileTime(stream, seek / SAMPLE_RATE));
  }
  return segments;
}

/**
 * Benchmarks decode a fixed number of tokens per second of speech, not of stream (which also
 * holds the shortened pauses and the padding around speech): the share of speech in the
 * streams known so far.
 */
function speechShare(channel: GrowingChannel, streams: readonly SpeechStream[]): number {
  const speechSeconds = channel.speech.reduce((n, r) => n + (r.end - r.start), 0);
  const streamSeconds = streams.reduce((n, s) => n + s.length, 0);
  return streamSeconds > 0 ? Math.min(1, speechSeconds / streamSeconds) : 1;
}
