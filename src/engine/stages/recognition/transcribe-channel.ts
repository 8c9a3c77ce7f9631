import type { ProvisionalSegment } from '../../../core/assemble/provisional-segment';
import type { RecognisedSegment } from '../../../core/assemble/response';
import type { LanguageBehaviour } from '../../../core/contract/request';
import { fileTime, unpausedSeconds } from '../../../core/decoding/speech-streams';
import { toSamples, toSeconds } from '../../../core/units';
import { DEVICE_SETTINGS } from '../../models/model-settings';
import type { Tensor } from '../../models/transformers-port';
import type { LoadedWhisper } from '../../ports';
import type { RecognitionSettings } from '../../stage-settings';
import { completeChannel, onlyHeard, type GrowingChannel } from '../../streams/growing-channel';
import type { ChannelAudio } from '../../streams/speech-audio';
import {
  LANGUAGE_BEHAVIOURS,
  type ChannelDecoding,
  type StreamDecoding,
} from './language-behaviours';
import {
  detectLanguage,
  encodeWindow,
  prominentLanguage,
  type EncodedWindow,
} from './language-detection';
import { WindowCursor, type SpeechWindow } from './window-cursor';
import { windowCut } from './window-cut';
import { segmentAt, WindowDecoder, type HeardWindow } from './window-decoder';
import { provisionalSegments } from './window-segments';

export interface RecognitionOptions {
  languageBehaviour: LanguageBehaviour;
  /** The language for `manual`. */
  language: string | null;
  task: 'transcribe' | 'translate';
  hint: string;
  onSegment?: (segment: RecognisedSegment) => void;
  /**
   * What is not posted yet: the segments held back until the language is sure, then those of
   * the window being decoded as each one closes, before the window's fallback checks. Each call
   * replaces the one before; once the window's segments are posted (or it is rejected) the list
   * shrinks to what is still held, empty in the end. Voiced windows decoded one at a time only
   * (not those decoded together: `settings.batchWindows`); nothing else depends on it.
   */
  onProvisional?: (segments: ProvisionalSegment[]) => void;
  /** Called as each window's recognition starts (before language detection or encoding). */
  onWindow?: () => void;
  /** Seconds of the channel's speech streams recognised so far, and the file time reached. */
  onAdvance?: (seconds: number, fileSeconds: number) => void;
  signal?: AbortSignal;
  /** The recognition stage's settings. */
  settings: RecognitionSettings;
}

/**
 * Recognises one channel: speech streams cut into model windows, each decoded with Whisper's
 * rules, the seek moving on by what each window's segments account for. The language
 * behaviour (language-behaviours.ts) decides in which language each stream is decoded and
 * when segments are posted.
 *
 * VAD decides where to look first: the speech it heard is decoded as before; then the loud
 * stretches it rejected (`heard: 'level'`), each window greedily and without earlier text, its
 * segments kept only where the decoding rules are sure of them and the recogniser says the
 * same when the window moves (`WindowDecoder`, which decodes every window). So speech VAD
 * cannot hear (a voice over a music bed) still reaches the recogniser, and what it is unsure
 * of over music or noise is not written.
 *
 * The channel may still be growing (see `GrowingChannel`): a window is decoded once all of its
 * audio is settled, so the result is the same as when the whole channel is known at the start.
 * With `settings.batchWindows` above 1, the windows after the first are decoded several at a
 * time (`decodeTogether` below); a batch holds the windows settled when it starts, and does
 * not wait for more.
 */
export async function transcribeChannel(
  model: LoadedWhisper,
  input: ChannelAudio | GrowingChannel,
  duration: number,
  options: RecognitionOptions,
): Promise<RecognisedSegment[]> {
  const channel = 'complete' in input ? input : completeChannel(input);
  const behaviour = LANGUAGE_BEHAVIOURS[options.languageBehaviour];
  const { signal } = options;
  const { settings } = options;
  const voice = onlyHeard(channel, 'voice');
  const loud = onlyHeard(channel, 'level');
  const cursor = (of: GrowingChannel = voice, earlyStart = false) =>
    new WindowCursor(of, model.windowSamples, duration, behaviour.perTurn, settings, earlyStart);
  const decoding: ChannelDecoding = {
    complete: () => channel.complete,
    async settledStart() {
      const windows = cursor();
      const settled = () => toSamples(windows.streams()[0]?.length ?? 0) >= model.windowSamples;
      while (!channel.complete && !settled()) await channel.changed(signal);
      options.onWindow?.();
      const streams = windows.streamAudio();
      // With no voice heard at all, the language is read from the loud stretches.
      return streams.length > 0 ? streams : cursor(loud).streamAudio();
    },
    encodeStart: (streams) => encodeWindow(model, streams[0]!.read(0, model.windowSamples)),
    detect: (window) => detectLanguage(model, window, signal),
    prominent: (streams, known) => prominentLanguage(model, streams, signal, known),
    decode: (plan) =>
      decodeStreams(
        model,
        channel,
        [cursor(voice, plan.earlyStart === true), cursor(loud)],
        plan,
        options,
        settings,
      ),
  };
  const detach = channel.attach();
  try {
    return await behaviour.recognise(decoding, options.language, options.onSegment ?? (() => {}));
  } finally {
    detach();
  }
}

/**
 * Decodes a channel's streams in the languages `plan` gives, window by window, until the end
 * of its speech (first the speech VAD heard, then the loud stretches it rejected); null if
 * `plan.onComplete` stopped it.
 */
async function decodeStreams(
  model: LoadedWhisper,
  channel: GrowingChannel,
  [voiced, loud]: [WindowCursor, WindowCursor],
  plan: StreamDecoding,
  options: RecognitionOptions,
  settings: RecognitionSettings,
): Promise<RecognisedSegment[] | null> {
  const { signal } = options;
  const batchWindows = settings.batchWindows ?? DEVICE_SETTINGS[model.device].batchWindows;
  const decoder = new WindowDecoder(model, {
    channel: channel.index,
    hint: options.hint,
    task: options.task,
    settings,
    ...(signal ? { signal } : {}),
  });
  const segments: RecognisedSegment[] = [];
  // A stream's first window, encoded for language detection and decoded next, is encoded once.
  let ready: { stream: number; window: EncodedWindow } | null = plan.ready
    ? { stream: 0, window: plan.ready }
    : null;
  let language = 'en';
  // Whether provisional text is shown, to withdraw it once its segments are posted.
  let shown = false;
  const showProvisional = (window: readonly ProvisionalSegment[]) => {
    const { onProvisional } = options;
    if (!onProvisional) return;
    const held = (plan.held?.() ?? []).map(({ text, start, end, channel }) => ({
      text,
      start,
      end,
      channel,
    }));
    const all = [...held, ...window];
    if (!shown && all.length === 0) return;
    shown = all.length > 0;
    onProvisional(all);
  };
  let completeSeen = false;
  let done = 0;
  let windows = voiced;
  // The channel's first window is decoded alone, whatever the batch: its words come first.
  let firstDecoded = false;
  /** A window's segments kept and posted, and the seek moved on by what they account for. */
  const account = (
    window: SpeechWindow,
    heard: HeardWindow,
    levelOnly: boolean,
    advance = true,
  ) => {
    const { stream, seek } = window;
    const offset = toSeconds(seek);
    const inFile = heard.segments.map((s) => segmentAt(s, (t) => fileTime(stream, offset + t)));
    for (const segment of decoder.keep(heard, inFile, heard.textTokens, levelOnly)) {
      segments.push(segment);
      plan.post(segment);
    }
    const consumed = heard.consumed;
    if (advance) windows.advance(consumed);
    done += consumed;
    if (!levelOnly) options.onAdvance?.(done, fileTime(stream, offset + consumed));
  };
  /** The language of a stream starting with `window`; its start encoded if that is needed. */
  const streamLanguage = async (window: SpeechWindow) => {
    const { audio, streamIndex } = window;
    const first = async () => {
      signal?.throwIfAborted();
      ready = {
        stream: streamIndex,
        window: await encodeWindow(model, audio.subarray(0, model.windowSamples)),
      };
      return ready.window;
    };
    language = await plan.languageOf(first);
    decoder.startStream(language);
  };
  /** The encoder output of `window`'s `audio` if it was encoded ahead (a stream's start). */
  const encodedAhead = (window: SpeechWindow, audio: Float32Array) => {
    const same =
      ready?.stream === window.streamIndex &&
      window.seek === 0 &&
      ready.window.audio.length === audio.length;
    const encoded = same ? ready!.window.encoded : null;
    ready = null;
    return encoded;
  };
  for (;;) {
    signal?.throwIfAborted();
    channel.throwIfFailed();
    if (channel.complete && !completeSeen) {
      completeSeen = true;
      if (plan.onComplete && !(await plan.onComplete())) {
        // Decoded again from the start: nothing of this decoding stands.
        if (shown) options.onProvisional?.([]);
        return null;
      }
      // The held segments, if any, are posted now.
      showProvisional([]);
    }
    const next = windows.next();
    if (next === 'end' && windows === voiced) {
      windows = loud;
      continue;
    }
    if (next === 'end') break;
    const levelOnly = windows === loud;
    if (next === 'wait') {
      await channel.changed(signal);
      continue;
    }
    const { stream, seek, audio } = next;
    // The tail of a loud stretch left after the window before it is too short to say anything
    // that window did not (a short reply alone is a window of 0.85 s or more, padded).
    if (levelOnly && seek > 0 && toSeconds(audio.length) < settings.minLevelTailSeconds) {
      windows.advance(toSeconds(audio.length));
      continue;
    }
    if (!levelOnly && firstDecoded && batchWindows > 1) {
      await decodeTogether(next);
      continue;
    }
    options.onWindow?.();
    if (seek === 0) await streamLanguage(next);
    const seconds = toSeconds(audio.length);
    // A window encoded ahead is the start of its stream; a stream's start never changes as the
    // channel grows.
    const encoded = encodedAhead(next, audio) ?? (await encodeWindow(model, audio)).encoded;
    const offset = toSeconds(seek);
    const speechSeconds = unpausedSeconds(
      stream,
      offset,
      offset + seconds,
      settings.keptPauseSeconds,
    );
    const heard = await decoder.decode({
      encoded,
      audio,
      speechSeconds,
      language,
      levelOnly,
      ...(next.cutShort ? { cutShort: true } : {}),
      ...(levelOnly || !options.onProvisional
        ? {}
        : {
            onSampled: (sampled: readonly number[]) => {
              const found = provisionalSegments(model, sampled, seconds, channel.index, (t) =>
                fileTime(stream, offset + t),
              );
              if (found.length > 0) showProvisional(found);
            },
          }),
    });
    firstDecoded = true;
    account(next, heard, levelOnly);
    // The window's own segments (posted or held above) replace what was shown of it.
    showProvisional([]);
  }
  showProvisional([]);
  return segments.sort((a, b) => a.start - b.start);

  /**
   * Windows of speech from `next` on decoded together (`settings.batchWindows` at most): each
   * cut where the speech pauses (window-cut.ts), so that the next one starts there before any
   * is decoded, until one runs on through speech (it ends the batch, and the seek moves on by
   * what its segments account for) or the known speech ends. All go through the encoder
   * (`settings.encoderBatch` a pass) and the decoder as one batch, without earlier text; their segments are kept in order.
   * No provisional text is shown of them: they are all posted once the batch is decoded.
   */
  async function decodeTogether(next: SpeechWindow) {
    const planned: {
      window: SpeechWindow;
      audio: Float32Array;
      language: string;
      whole: boolean;
      encoded: Tensor | null;
    }[] = [];
    for (let window = next; ;) {
      options.onWindow?.();
      if (window.seek === 0) await streamLanguage(window);
      const from = toSeconds(window.seek);
      const cut = windowCut(
        window.stream,
        from,
        toSeconds(window.audio.length),
        toSeconds(model.windowSamples),
        settings.keptPauseSeconds,
      );
      const audio = window.audio.subarray(0, toSamples(cut.seconds));
      const encoded = encodedAhead(window, audio);
      planned.push({ window, audio, language, whole: cut.whole, encoded });
      if (!cut.whole) break;
      windows.advance(toSeconds(audio.length));
      if (planned.length >= batchWindows) break;
      const more = windows.next();
      if (more === 'wait' || more === 'end') break;
      window = more;
    }
    const missing = planned.filter((p) => p.encoded === null);
    const features = await Promise.all(missing.map((p) => model.features(p.audio)));
    // Through the encoder `encoderBatch` at a time (see the setting).
    for (let i = 0; i < missing.length; i += settings.encoderBatch) {
      const group = features.slice(i, i + settings.encoderBatch);
      signal?.throwIfAborted();
      const encoded =
        group.length === 1 ? [await model.encode(group[0]!)] : await model.encodeBatch(group);
      encoded.forEach((e, j) => (missing[i + j]!.encoded = e));
    }
    signal?.throwIfAborted();
    const heard = await decoder.decodeBatch(
      planned.map((p) => {
        const from = toSeconds(p.window.seek);
        const to = from + toSeconds(p.audio.length);
        return {
          encoded: p.encoded!,
          audio: p.audio,
          speechSeconds: unpausedSeconds(p.window.stream, from, to, settings.keptPauseSeconds),
          language: p.language,
          whole: p.whole,
        };
      }),
    );
    // A whole window's seek moved on as it was planned; the last one's moves on now.
    planned.forEach((p, i) => account(p.window, heard[i]!, false, !p.whole));
    showProvisional([]);
  }
}
