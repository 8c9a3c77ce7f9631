import type { RecognisedSegment } from '../../core/assemble/response';
import type { LanguageBehaviour } from '../../core/contract/request';
import { languageProbabilities, seededRandom } from '../../core/decoding/probabilities';
import {
  fileTime,
  speechStreams,
  streamSamples,
  type SpeechStream,
} from '../../core/decoding/speech-streams';
import type { ChannelAudio } from '../media/prepared-audio';
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
  /** Seconds of the channel's speech recognised so far. */
  onAdvance?: (seconds: number) => void;
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

/** Streams of speech to recognise: one for the whole channel, or one per turn when languages switch. */
export function channelStreams(
  channel: ChannelAudio,
  duration: number,
  perTurn: boolean,
): SpeechStream[] {
  return speechStreams(channel.speech, duration, {
    padding: 0.2,
    keptPause: 0.5,
    splitPause: perTurn ? 1 : Infinity,
  });
}

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

/**
 * The prominent language of the speech: language probabilities of up to three windows spread
 * over the speech (start, middle, end), weighted by the seconds of speech each holds. The
 * first window's encoding is returned for the decoding that starts there.
 */
export async function prominentLanguage(
  model: LoadedWhisper,
  streams: readonly { audio: Float32Array }[],
  signal?: AbortSignal,
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
    const window = await encodeWindow(model, stream.audio.subarray(offset, offset + windowLength));
    if (pick === 0) first = window;
    const probabilities = await detectLanguage(model, window, signal);
    const weight = window.audio.length;
    for (const [code, p] of probabilities) sums.set(code, (sums.get(code) ?? 0) + p * weight);
  }
  return { language: best(sums), first };
}

/**
 * Recognises one channel: speech streams cut into model windows, each decoded with Whisper's
 * rules, the seek moving on by what each window's segments account for. Segments are reported
 * as they are decoded.
 */
export async function transcribeChannel(
  model: LoadedWhisper,
  channel: ChannelAudio,
  duration: number,
  options: RecognitionOptions,
): Promise<RecognisedSegment[]> {
  const perTurn = options.languageBehaviour === 'automatic multiple languages';
  const streams = channelStreams(channel, duration, perTurn).map((stream) => ({
    stream,
    audio: streamSamples(stream, channel.samples, SAMPLE_RATE),
  }));
  let fixedLanguage: string | null =
    options.languageBehaviour === 'manual' ? options.language : null;
  // A window encoded for language detection and decoded next is encoded once.
  let ready: EncodedWindow | null = null;
  if (options.languageBehaviour === 'automatic single language') {
    const prominent = await prominentLanguage(model, streams, options.signal);
    fixedLanguage = prominent.language;
    ready = prominent.first;
  }

  // Benchmarks decode a fixed number of tokens per second of speech, not of stream (which
  // also holds the shortened pauses and the padding around speech).
  const speechSeconds = channel.speech.reduce((n, r) => n + (r.end - r.start), 0);
  const streamSeconds = streams.reduce((n, s) => n + s.stream.length, 0);
  const speechShare = streamSeconds > 0 ? Math.min(1, speechSeconds / streamSeconds) : 1;

  const hintTokens = options.hint ? model.encodeText(` ${options.hint.trim()}`) : [];
  const promptRoom = Math.floor(model.maxTargetPositions / 2) - 1;
  const random = seededRandom(channel.index + 1);
  const segments: RecognisedSegment[] = [];
  let previous: number[] = [];
  let previousLanguage: string | null = null;
  let done = 0;

  for (const { stream, audio } of streams) {
    let language = fixedLanguage;
    if (language === null) {
      options.signal?.throwIfAborted();
      ready = await encodeWindow(model, audio.subarray(0, model.windowSamples));
      language = best(await detectLanguage(model, ready, options.signal));
    }
    if (language !== previousLanguage) previous = [];
    previousLanguage = language;
    let seek = 0;
    while (audio.length - seek >= MIN_WINDOW_SECONDS * SAMPLE_RATE) {
      options.signal?.throwIfAborted();
      const window = audio.subarray(seek, seek + model.windowSamples);
      const seconds = window.length / SAMPLE_RATE;
      const sameWindow =
        ready !== null &&
        ready.audio.buffer === window.buffer &&
        ready.audio.byteOffset === window.byteOffset &&
        ready.audio.length === window.length;
      const { encoded } = sameWindow ? ready! : await encodeWindow(model, window);
      ready = null;
      const room = Math.max(0, promptRoom - hintTokens.length);
      const decode = await decodeWindow(model, encoded, seconds, {
        language,
        task: options.task,
        promptTokens: [...hintTokens, ...previous.slice(-room)],
        temperatures: TEMPERATURES,
        maxNewTokens: tokenBudget(model, seconds),
        random,
        forcedTokenCount:
          options.forcedTokensPerSecond === undefined
            ? undefined
            : Math.max(1, Math.round(options.forcedTokensPerSecond * seconds * speechShare)),
        signal: options.signal,
      });
      let consumed = seconds;
      if (!isNoSpeech(decode)) {
        const offset = seek / SAMPLE_RATE;
        const result = windowSegments(
          model,
          decode,
          seconds,
          options.task === 'translate' ? 'en' : language,
          channel.index,
          (t) => fileTime(stream, offset + t),
        );
        for (const segment of result.segments) {
          segments.push(segment);
          options.onSegment?.(segment);
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
      options.onAdvance?.(done);
    }
  }
  return segments;
}
