import { peakLevelDb } from '../../core/audio/levels';
import { SILENT_PEAK_DB } from '../../core/audio/silence';
import type { LanguageBehaviour } from '../../core/contract/request';
import {
  fileTime,
  streamSlice,
  unpausedSeconds,
  type SpeechStream,
} from '../../core/decoding/speech-streams';
import type { CaptionLine, CaptionUpdate } from '../../core/live/captions';
import { LiveProgress, type LiveWork } from '../../core/live/live-progress';
import { LiveSpeech, type LiveRegions } from '../../core/live/live-speech';
import { SampleBuffer } from '../../core/live/sample-buffer';
import { roundToMillisecond, SAMPLE_RATE, toSamples, toSeconds } from '../../core/units';
import { pieceStart, VAD_WINDOW } from '../models/silero-vad';
import type { EnginePorts, LoadedWhisper, ScoreOptions, SpeechDetector } from '../ports';
import {
  stageSettings,
  type LiveSettings,
  type RecognitionSettings,
  type StageSettingsOverrides,
} from '../stage-settings';
import { segmentAt, WindowDecoder, type EncodedWindow } from '../stages/recognition';

export interface LiveTranscriptionOptions {
  /** Channels of the audio pushed (each its own speech, captions and earlier text). */
  channels: number;
  languageBehaviour: LanguageBehaviour;
  /** The language for `manual`. */
  language: string | null;
  hint: string;
  /** What changes of the defaults: the live, speech and recognition settings are used. */
  settings?: StageSettingsOverrides;
}

/** One channel's state: its recent audio, its speech, what is settled, what it says now. */
interface LiveChannel {
  index: number;
  audio: SampleBuffer;
  speech: LiveSpeech;
  regions: LiveRegions;
  progress: LiveProgress;
  decoder: WindowDecoder;
  /** The language kept for the channel (null until one is detected and kept). */
  language: string | null;
  provisional: CaptionLine | null;
}

/**
 * Transcribes audio while it is recorded, with the file path's parts: the same VAD and region
 * rules, and the same decoding of a window (earlier text, fallbacks, no-speech rule, repeat
 * guard) once a pause settles the speech before it. Speech still going on is glanced at
 * (one greedy pass) each time it grows by a second, and sent as the channel's provisional line;
 * speech without a pause for most of a window is settled window by window. The channels are
 * served in turn, settled speech first. When audio comes faster than it is heard, glances are
 * skipped and the buffered audio is caught up on; nothing is dropped but audio no decode or VAD
 * stream needs any more, so a long session holds seconds of it.
 *
 * Languages: `manual` decodes in the given language; `automatic single language` detects it
 * on the first window with enough speech and keeps it for the channel; `automatic multiple
 * languages` detects it again for each turn (speech after a pause of a second or more), as
 * files do, and glances use the last turn's language.
 */
export class LiveTranscriber {
  private readonly channels: LiveChannel[];
  private readonly settings: LiveSettings;
  private readonly recognition: RecognitionSettings;
  private readonly abort = new AbortController();
  private ended = false;
  private cancelled = false;
  private running = true;
  private wake: (() => void) | null = null;
  private idleWaiters: (() => void)[] = [];
  /** Settled lines not yet sent. */
  private settled: CaptionLine[] = [];
  private sent: { provisional: (CaptionLine | null)[]; behind: number } | null = null;
  /** The channel served last (the next turn starts after it). */
  private turn = -1;
  /** Set by every push, end and cancel: the loop looks again before it waits. */
  private woken = false;
  /** Resolves once everything is settled after `end`, or at `cancel`; rejects on a failure. */
  readonly finished: Promise<void>;
  /** Seconds spent scoring and decoding (benchmarks). */
  busySeconds = 0;

  constructor(
    private readonly ports: Pick<EnginePorts, 'recogniser' | 'speechDetector' | 'clock'>,
    private readonly options: LiveTranscriptionOptions,
    private readonly onUpdate: (update: CaptionUpdate) => void,
  ) {
    if (!Number.isInteger(options.channels) || options.channels < 1) {
      throw new RangeError(
        `A live transcription needs 1 or more channels, not ${options.channels}.`,
      );
    }
    const { live, recognition, speech } = stageSettings(options.settings);
    this.settings = live;
    this.recognition = recognition;
    this.channels = Array.from({ length: options.channels }, (_, index) => ({
      index,
      audio: new SampleBuffer(),
      speech: new LiveSpeech(speech.regions),
      regions: { settled: [], all: [] },
      // Replaced once the recogniser is loaded (its window and vocabulary).
      progress: null as unknown as LiveProgress,
      decoder: null as unknown as WindowDecoder,
      language: options.languageBehaviour === 'manual' ? (options.language ?? 'en') : null,
      provisional: null,
    }));
    this.finished = this.run().finally(() => {
      this.running = false;
      this.releaseIdle();
    });
    this.finished.catch(() => undefined);
  }

  /** The next samples of each channel, at 16 kHz (kept until heard; the arrays are copied). */
  push(channels: readonly Float32Array[]): void {
    if (this.ended || this.cancelled || !this.running) return;
    if (channels.length !== this.channels.length) {
      throw new RangeError(
        `Live audio has ${this.channels.length} channels; ${channels.length} were sent.`,
      );
    }
    channels.forEach((samples, i) => this.channels[i]!.audio.append(samples));
    this.wakeUp();
  }

  /** No more audio: settles everything received, sends it, and resolves. */
  end(): Promise<void> {
    this.ended = true;
    this.wakeUp();
    return this.finished;
  }

  /** Stops at once: no more updates, the work in hand abandoned. */
  cancel(): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.abort.abort(new DOMException('The live transcription was cancelled.', 'AbortError'));
    this.wakeUp();
  }

  /** Samples of audio held, over all channels (what memory the audio takes stays bounded). */
  retainedSamples(): number {
    return this.channels.reduce((n, c) => n + c.audio.retained, 0);
  }

  /** Resolves once all audio pushed so far is heard (or the transcription is over). */
  idle(): Promise<void> {
    // Asleep with nothing new: everything is heard already.
    if (!this.running || (this.wake !== null && !this.woken)) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private wakeUp(): void {
    this.woken = true;
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private releaseIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private async run(): Promise<void> {
    const { signal } = this.abort;
    try {
      const [model, detector] = await Promise.all([
        this.ports.recogniser({ signal }),
        this.ports.speechDetector({ signal }),
      ]);
      const recognition = this.recognition;
      const perTurn = this.options.languageBehaviour === 'automatic multiple languages';
      for (const channel of this.channels) {
        channel.progress = new LiveProgress({
          padding: recognition.streamPaddingSeconds,
          keptPause: recognition.keptPauseSeconds,
          splitPause: perTurn ? recognition.turnPauseSeconds : Infinity,
          windowSeconds: toSeconds(model.windowSamples),
          minWindowSeconds: recognition.minWindowSeconds,
        });
        channel.decoder = new WindowDecoder(model, {
          channel: channel.index,
          hint: this.options.hint,
          task: 'transcribe',
          settings: recognition,
          signal,
        });
      }
      for (;;) {
        if (this.cancelled) return;
        // What arrives while this step runs is seen by the next one.
        this.woken = false;
        const ended = this.ended;
        const started = this.ports.clock();
        const scored = await this.score(detector, ended);
        const next = this.pick(ended);
        if (next) await this.decode(model, next.channel, next.work);
        if (scored || next) this.busySeconds += this.ports.clock() - started;
        if (this.cancelled) return;
        this.trim(detector);
        if (next || scored) {
          this.emit(false);
          // Lets messages in (more audio, a cancel) between steps.
          await new Promise((resolve) => setTimeout(resolve, 0));
          continue;
        }
        if (ended) {
          this.emit(true);
          return;
        }
        this.emit(false);
        if (this.woken) continue;
        this.releaseIdle();
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } catch (thrown) {
      if (this.cancelled) return;
      throw thrown;
    }
  }

  /** Scores the audio VAD has not heard yet (all of it once ended); true if it scored any. */
  private async score(detector: SpeechDetector, ended: boolean): Promise<boolean> {
    let any = false;
    const minimum = toSamples(this.settings.scoreEverySeconds);
    for (const channel of this.channels) {
      const have = channel.audio.end;
      const from = channel.speech.scoredWindows;
      const to = ended ? Math.ceil(have / VAD_WINDOW) : Math.floor(have / VAD_WINDOW);
      if (to <= from || (!ended && (to - from) * VAD_WINDOW < minimum)) {
        if (ended) channel.regions = channel.speech.regions(true);
        continue;
      }
      const piece = channel.audio.view(from * VAD_WINDOW, to * VAD_WINDOW);
      const scores =
        peakLevelDb(piece) < SILENT_PEAK_DB
          ? new Float32Array(to - from)
          : await detector.probabilities(...this.vadPiece(detector, channel, from, to));
      channel.speech.add(scores);
      channel.regions = channel.speech.regions(ended);
      any = true;
    }
    return any;
  }

  /**
   * What to score windows `from`..`to` of a channel with. Each new piece is scored as a VAD
   * stream of its own, after the detector's warm-up on the audio before it (as the file path
   * scores each of its streams after the first): so a piece costs its own windows and the
   * warm-up, not its stream's windows so far again. The samples are copied: audio pushed
   * meanwhile may move the buffer.
   */
  private vadPiece(
    detector: SpeechDetector,
    channel: LiveChannel,
    from: number,
    to: number,
  ): [Float32Array, ScoreOptions] {
    const size = detector.streamWindows;
    const warm = detector.warmupWindows;
    const signal = this.abort.signal;
    if (Number.isFinite(size) && size >= warm && from >= warm) {
      // In the detector's numbering, the piece starts its second stream.
      const samples = channel.audio.view((from - warm) * VAD_WINDOW, to * VAD_WINDOW).slice();
      return [samples, { from: size, to: size + to - from, offset: size - warm, signal }];
    }
    // The first second of the recording: its stream so far, from the start.
    const first = pieceStart(detector, from);
    const samples = channel.audio.view(first * VAD_WINDOW, to * VAD_WINDOW).slice();
    return [samples, { from, to, offset: first, signal }];
  }

  /**
   * Seconds of audio received that are not yet heard: not scored by VAD, or settled speech
   * not yet decoded.
   */
  private behind(): number {
    let most = 0;
    for (const channel of this.channels) {
      const received = toSeconds(channel.audio.end);
      const scored = channel.speech.scoredSeconds;
      const waiting = channel.progress.streams(channel.regions.settled, scored)[0];
      const heard = waiting ? fileTime(waiting, 0) : scored;
      most = Math.max(most, received - Math.min(heard, scored));
    }
    return most;
  }

  /** The next work, channels in turn: settled speech first, then long speech, then glances. */
  private pick(ended: boolean): { channel: LiveChannel; work: LiveWork } | null {
    const glance = !ended && this.behind() <= this.settings.behindSeconds;
    const order = this.channels.map(
      (_, k) => this.channels[(this.turn + 1 + k) % this.channels.length]!,
    );
    const found = order.map((channel) => ({
      channel,
      work: channel.progress.next(
        channel.regions.settled,
        channel.regions.all,
        channel.speech.scoredSeconds,
        ended,
        {
          longShare: this.settings.longShare,
          glanceEvery: this.settings.glanceEverySeconds,
          glance,
        },
      ),
    }));
    for (const kind of ['settle', 'long', 'provisional'] as const) {
      const chosen = found.find((f) => f.work?.kind === kind);
      if (chosen) {
        this.turn = chosen.channel.index;
        return { channel: chosen.channel, work: chosen.work! };
      }
    }
    // Speech that is gone (too short to be a region after all) leaves no provisional line.
    for (const channel of this.channels) {
      if (!channel.progress.hasOpenSpeech(channel.regions.all, channel.speech.scoredSeconds))
        channel.provisional = null;
    }
    return null;
  }

  /** The first `seconds` of a stream's audio, from the channel's buffer. */
  private streamAudio(channel: LiveChannel, stream: SpeechStream, seconds: number): Float32Array {
    const start = toSeconds(channel.audio.start);
    const shifted: SpeechStream = {
      length: stream.length,
      pieces: stream.pieces.map((p) => ({
        ...p,
        fileStart: p.fileStart - start,
        fileEnd: p.fileEnd - start,
      })),
    };
    return streamSlice(
      shifted,
      channel.audio.view(channel.audio.start),
      SAMPLE_RATE,
      0,
      toSamples(seconds),
    );
  }

  private async decode(model: LoadedWhisper, channel: LiveChannel, work: LiveWork): Promise<void> {
    const { stream } = work;
    const { decoder } = channel;
    const scored = channel.speech.scoredSeconds;
    const audio = this.streamAudio(channel, stream, work.seconds);
    const seconds = toSeconds(audio.length);
    const window = await decoder.encode(audio);
    const speechSeconds = unpausedSeconds(stream, 0, seconds, this.recognition.keptPauseSeconds);
    const language = await this.languageOf(channel, window, speechSeconds, work);
    const line = (text: string, end: number): CaptionLine | null =>
      text === ''
        ? null
        : {
            channel: channel.index,
            start: roundToMillisecond(fileTime(stream, 0)),
            end: roundToMillisecond(end),
            text,
          };

    if (work.kind === 'provisional') {
      const text = await decoder.glance(window.encoded, seconds, language);
      channel.provisional = line(text, fileTime(stream, seconds));
      channel.progress.glanced(scored);
      return;
    }

    decoder.startStream(language);
    const heard = await decoder.decode({
      encoded: window.encoded,
      audio,
      speechSeconds,
      language,
    });
    let consumed = heard.consumed;
    if (heard.speech) {
      let segments = heard.segments;
      let tokens = heard.textTokens;
      // Speech still going on: what ends near the window's end may be cut off and stays open
      // (a full window settles as a file's does).
      const fullWindow = audio.length >= model.windowSamples;
      if (work.kind === 'long' && !fullWindow) {
        const cut = Math.min(consumed, seconds - this.settings.openTailSeconds);
        segments = segments.filter((s) => s.end <= cut);
        const last = segments.at(-1);
        if (!last) {
          // Nothing finished yet: its words are the provisional line, and it waits to grow.
          channel.provisional = line(decoder.text(heard.decode), fileTime(stream, seconds));
          channel.progress.glanced(scored);
          return;
        }
        consumed = last.end;
        tokens = model.encodeText(segments.map((s) => ` ${s.text}`).join(''));
      }
      const inFile = segments.map((s) => segmentAt(s, (t) => fileTime(stream, t)));
      for (const segment of decoder.keep(heard, inFile, tokens)) {
        this.settled.push({
          channel: channel.index,
          start: roundToMillisecond(segment.start),
          end: roundToMillisecond(segment.end),
          text: segment.text,
        });
      }
    }
    channel.progress.settle(work, consumed, scored);
    channel.provisional = null;
  }

  /** The language to decode a window in (see the class comment). */
  private async languageOf(
    channel: LiveChannel,
    window: EncodedWindow,
    speechSeconds: number,
    work: LiveWork,
  ): Promise<string> {
    const behaviour = this.options.languageBehaviour;
    if (behaviour === 'manual') return this.options.language ?? 'en';
    const perTurn = behaviour === 'automatic multiple languages';
    const newTurn = perTurn && work.kind !== 'provisional' && work.startsStream;
    if (channel.language !== null && !newTurn) return channel.language;
    const detected = await channel.decoder.language(window);
    if (
      perTurn ? work.kind !== 'provisional' : speechSeconds >= this.settings.languageSpeechSeconds
    )
      channel.language = detected;
    return detected;
  }

  /** Drops what no decode or VAD stream needs any more. */
  private trim(detector: SpeechDetector): void {
    for (const channel of this.channels) {
      const scored = channel.speech.scoredSeconds;
      const decoding = Math.floor(
        toSamples(channel.progress.neededFrom(channel.regions.all, scored)) / VAD_WINDOW,
      );
      // The next piece's warm-up (or, without streams, everything: a layout for comparisons).
      const scoring = Number.isFinite(detector.streamWindows)
        ? channel.speech.scoredWindows - detector.warmupWindows
        : 0;
      channel.audio.dropBefore(Math.max(0, Math.min(decoding, scoring)) * VAD_WINDOW);
      channel.speech.dropBefore(channel.progress.neededFrom(channel.regions.all, scored));
    }
  }

  /** Sends what changed: new settled lines, provisional lines, how far behind it is. */
  private emit(final: boolean): void {
    if (this.cancelled) return;
    const provisional = final
      ? this.channels.map(() => null)
      : this.channels.map((c) => c.provisional);
    const late = final ? 0 : this.behind();
    const behind = late > this.settings.behindSeconds ? Math.round(late * 10) / 10 : 0;
    const sent = this.sent;
    const same =
      sent !== null &&
      this.settled.length === 0 &&
      sent.behind === behind &&
      sent.provisional.every((p, i) => p === provisional[i]);
    if (same && !final) return;
    const update: CaptionUpdate = { settled: this.settled, provisional, behindSeconds: behind };
    this.settled = [];
    this.sent = { provisional, behind };
    this.onUpdate(update);
  }
}
