/**
 * The tunable hyper-parameters of each stage, in one place: one interface per stage, and its
 * defaults (the values every request runs with). The pipeline (and a live transcription) is
 * given the settings as overrides of these defaults (`stageSettings`), and hands each stage its
 * own part in its input (`settings`): no stage reads a default itself.
 *
 * Not here: what a format or a model fixes (the 16 kHz sample rate, Silero's 512-sample
 * window, ffmpeg's file names), how the models are loaded (`models/`), and the defaults of
 * core's pure helpers, which stay beside the code and the measurements that chose them; the
 * speech stage's VAD and loudness options are those helpers' defaults, referred to here so
 * that the stage passes them on explicitly.
 */
import { DEFAULT_LOUDNESS, type LoudnessOptions } from '../core/audio/loud-regions';
import type { Seconds } from '../core/units';
import { CHAPTER_DEFAULTS, type ChapterSettings } from '../core/understanding/chapters';
import {
  DEFAULT_SPEECH_REGION_OPTIONS,
  type SpeechRegionOptions,
} from '../core/audio/speech-regions';

export interface MediaSettings {
  /**
   * Seconds of 16 kHz samples the channels are first allocated for (the file's own length when
   * shorter); they grow as decoding goes on past it.
   */
  readonly firstCapacitySeconds: number;
  /** Audio at least this many seconds long (or of unknown length) is kept as 16-bit samples. */
  readonly compactFromSeconds: number;
  /** Bytes of 16 kHz float output one decoding window holds, whatever the channel count. */
  readonly windowOutputBytes: number;
  /** The shortest decoding window in seconds, however many channels share the bytes. */
  readonly minWindowSeconds: number;
  /**
   * Where the first window is longer than this, a first ffmpeg run decodes only this many
   * seconds (0: none), so that speech detection starts on them while the rest of the window
   * decodes; all but its last half second are kept (`decode.ts`).
   */
  readonly firstLookSeconds: number;
  /** Seconds each window after the first starts early, to be matched against what is decoded. */
  readonly leadInSeconds: number;
  /** The largest seek error corrected, in seconds. */
  readonly maxShiftSeconds: number;
  /** Seconds at the start of a window after a seek that are not compared. */
  readonly compareFromSeconds: number;
  /** The least correlation (0..1) at which a window's lead-in is taken to match. */
  readonly minAlignmentCorrelation: number;
  /**
   * Seconds before a window's start that a packet is looked for, in streams read from a packet's
   * byte (`seek-anchors.ts`)...
   */
  readonly anchorWarmUpSeconds: number;
  /** ...and the fewest seconds of packets the decoder runs over before the window starts. */
  readonly anchorMinWarmUpSeconds: number;
  /**
   * Windows ending within this many seconds of the stated end (which may be an estimate) are
   * read from a packet's byte only where the listing of the end found where the audio stops;
   * that listing starts this far, and a warm-up more, before the stated end.
   */
  readonly anchorEndMarginSeconds: number;
  /**
   * Seconds of packets that listing covers at most: a stream whose packets go on past them is
   * longer than it states (a header may say anything), and its end is not taken from it.
   */
  readonly anchorEndListingSeconds: number;
  /**
   * The share (0..1) of its declared duration under which a file the decoder complained about
   * is refused as truncated.
   */
  readonly minDecodedShare: number;
  /** Seconds a media URL may take to answer, and to send more of its body. */
  readonly fetchTimeoutSeconds: number;
}

export const DEFAULT_MEDIA_SETTINGS: Readonly<MediaSettings> = {
  /**
   * The channels start this long and grow as decoding goes on: a header may claim any length
   * (75 hours of 16 kHz samples no longer fit one typed array), and what it claims is not
   * trusted to size memory.
   */
  firstCapacitySeconds: 3600,
  /**
   * From 10 minutes on, channels are kept 16-bit: two hours of stereo then hold 461 MB instead
   * of 922 MB, which with the models and ffmpeg keeps the page under 1 GB. The rounding adds
   * noise 96 dB below full scale, far under any recording's own.
   */
  compactFromSeconds: 600,
  /**
   * About 8 MB of output per window, so memory stays bounded for any length and channel
   * count (a window's output is held twice as it is handed over: ffmpeg's files, then the
   * window's array; 16 MB windows peaked 12-20 MB higher over 20 minutes of stereo in
   * Chromium, for 2% less time)...
   */
  windowOutputBytes: 8 * 1024 * 1024,
  /** ...but never less than 30 s of audio per window. */
  minWindowSeconds: 30,
  /**
   * The speech stage's first VAD piece (`firstPieceSeconds`, 32 s) and the half second cut off:
   * a 4-minute first window took 0.2-0.4 s to decode before speech detection could start, and a
   * 65-s look 0.05-0.07 s more than this one.
   */
  firstLookSeconds: 33,
  leadInSeconds: 0.6,
  maxShiftSeconds: 0.2,
  /** The first decoded samples after a seek may be a decoder's warm-up. */
  compareFromSeconds: 0.1,
  minAlignmentCorrelation: 0.5,
  /**
   * An mp3 frame may take bits from the 511 bytes before it (a frame or two); a second of
   * packets leaves the decoder's state whole at any bit rate, and costs little to decode.
   */
  anchorWarmUpSeconds: 1,
  anchorMinWarmUpSeconds: 0.5,
  /** The encoder's padding at an mp3's end is under a tenth of a second. */
  anchorEndMarginSeconds: 2,
  /**
   * A stated length may be an estimate from the first packet's bit rate; a header that lies
   * would otherwise have the listing run over the rest of the file: for three hours of 8 kbps
   * mp3 stated as nine minutes, 37 MB of JSON, which a worn ffmpeg core cut short, so that the
   * stream seemed to end there.
   */
  anchorEndListingSeconds: 60,
  minDecodedShare: 0.9,
  /**
   * A server that accepts the connection and then says nothing would otherwise hold the
   * request for as long as the runtime's own limit (five minutes in Node, none in some
   * browsers).
   */
  fetchTimeoutSeconds: 30,
};

export interface SpeechSettings {
  /** Seconds of audio a VAD piece needs at least (but the last), so that batches stay wide. */
  readonly minPieceSeconds: number;
  /**
   * Seconds of audio the first VAD piece holds at most where scoring runs beside recognition;
   * later pieces are as wide as the audio decoded.
   */
  readonly firstPieceSeconds: number;
  /**
   * How VAD's speech probabilities become regions: onset and offset probabilities, shortest
   * speech and pause, padding.
   */
  readonly regions: Readonly<SpeechRegionOptions>;
  /** How loud stretches VAD rejected are found (`core/audio/loud-regions.ts`). */
  readonly loudness: Readonly<LoudnessOptions>;
}

export const DEFAULT_SPEECH_SETTINGS: Readonly<SpeechSettings> = {
  /** About 30 s. */
  minPieceSeconds: 30,
  /**
   * 32 s: four of the detector's 8-s streams, enough speech for the first window, which is cut
   * short (`firstWindowSeconds`). A piece takes as many steps whatever its length (one per
   * window of a stream), each step costing more with more streams side by side: 32 s were
   * scored in 0.30-0.42 s where 64 s took 0.60 s (Chromium, 121-s recording, the detector run
   * once ahead: `warm-up.ts`).
   */
  firstPieceSeconds: 32,
  /** Chosen on far-field meetings (`core/audio/speech-regions.ts`). */
  regions: DEFAULT_SPEECH_REGION_OPTIONS,
  /** Chosen on the speech-under-music development set (`core/audio/loud-regions.ts`). */
  loudness: DEFAULT_LOUDNESS,
};

/** Whisper's thresholds for giving up on a decode and trying a higher temperature. */
export interface FallbackThresholds {
  /** A decode whose text compresses more than this (gzip ratio) repeats itself. */
  readonly compressionRatio: number;
  /** A decode with a mean log-probability per token below this is unsure. */
  readonly logProbability: number;
  /** Above this no-speech probability (0..1), an unsure decode is silence. */
  readonly noSpeech: number;
}

export interface RecognitionSettings {
  /** The decoding temperatures tried in turn on a window of speech (Whisper's fallback). */
  readonly temperatures: readonly number[];
  readonly fallback: FallbackThresholds;
  /**
   * A decode shown earlier text that passes the fallback test with a mean log-probability per
   * token below this is decoded again without that text, and the surer of the two is kept.
   */
  readonly contextDoubt: number;
  /** A decode at a temperature above this is not shown to the next window as earlier text. */
  readonly maxContextTemperature: number;
  /**
   * Fewer text tokens than this per second of speech in a window decoded with earlier text is
   * not a transcript of it: the window is decoded again without that text.
   */
  readonly minTextTokensPerSpeechSecond: number;
  /** Tokens a window may take: this many per second of its audio... */
  readonly tokensPerSecond: number;
  /** ...plus this many (within Whisper's half context). */
  readonly extraTokens: number;
  /** A window with fewer seconds of audio than this is not worth a decoder pass. */
  readonly minWindowSeconds: number;
  /**
   * Seconds: in a loud stretch VAD heard no voice in, what is left after a window is decoded
   * only if at least this long.
   */
  readonly minLevelTailSeconds: number;
  /**
   * Seconds of context kept around each speech region when regions are joined into streams
   * (VAD edges are tight).
   */
  readonly streamPaddingSeconds: number;
  /** Pauses in a stream are shortened to this many seconds. */
  readonly keptPauseSeconds: number;
  /**
   * Where languages may switch (`automatic multiple languages`), a pause of at least this many
   * seconds starts a stream of its own.
   */
  readonly turnPauseSeconds: number;
  /** How far, in seconds, the second hearing of a loud stretch starts after the first. */
  readonly secondHearingShiftSeconds: number;
  /** The share (0..1) of words two hearings must have in common for the recogniser to insist. */
  readonly insistedWordShare: number;
  /** Lines of earlier windows that a new line is compared with (repeat guard). */
  readonly rememberedLines: number;
  /** Lines shorter than this many words are never taken for a loop: "yes", "thank you". */
  readonly minLoopWords: number;
  /**
   * Windows of speech decoded together, as the rows of one batch (one encoder pass, then one
   * decoder step for all of them at a time). 1 decodes them one by one, each shown the text
   * before it. Above 1, every window after a channel's first is decoded without earlier text
   * and cut where the speech pauses (recognition in docs/usage.md). null: as many as suit the
   * device the model runs on (`DEVICE_SETTINGS`).
   */
  readonly batchWindows: number | null;
  /**
   * Of windows decoded together, how many go through the encoder in one pass (at most
   * `batchWindows`).
   */
  readonly encoderBatch: number;
  /**
   * Where a channel's language is known before its speech is (`manual`), its first window ends
   * in the middle of the last pause of its speech between `firstWindowMinSeconds` and this many
   * seconds (0: a whole model window, as every other), so that the first words come sooner;
   * without such a pause it is a whole window.
   */
  readonly firstWindowSeconds: number;
  readonly firstWindowMinSeconds: number;
}

export const DEFAULT_RECOGNITION_SETTINGS: Readonly<RecognitionSettings> = {
  temperatures: [0, 0.2, 0.4, 0.6, 0.8, 1],
  fallback: {
    compressionRatio: 2.4,
    logProbability: -1,
    noSpeech: 0.6,
  },
  /**
   * Conditioning that misleads the decoder mostly shows as a drop in its certainty before it
   * fails outright: the test model, shown the text of a window before, dropped and garbled words
   * at -0.56 to -0.74 where the same windows without it decoded cleanly at -0.35 to -0.42. Clear
   * speech mostly decodes above it and costs one decode.
   */
  contextDoubt: -0.5,
  /** Whisper's rule: a high-temperature decode is not trusted as context. */
  maxContextTemperature: 0.5,
  /**
   * Speech runs at 2-5 tokens a second. A false alarm costs one more decode, whose result
   * (without the earlier text) is as valid as the first. The seconds are the window's own (its
   * shortened pauses left out), not a share of the channel's speech: that share changes as more
   * of a growing channel is known, and the decision with it.
   */
  minTextTokensPerSpeechSecond: 0.5,
  /**
   * No more than fast speech needs (about 8 text tokens a second plus timestamps), so that a
   * repetition loop in a short window is cut early instead of running to the limit at every
   * fallback temperature.
   */
  tokensPerSecond: 15,
  extraTokens: 16,
  minWindowSeconds: 0.1,
  /** A fraction of a second of music decodes to a word now and then. */
  minLevelTailSeconds: 0.5,
  streamPaddingSeconds: 0.2,
  keptPauseSeconds: 0.5,
  turnPauseSeconds: 1,
  secondHearingShiftSeconds: 0.25,
  insistedWordShare: 0.5,
  rememberedLines: 8,
  minLoopWords: 3,
  batchWindows: null,
  /**
   * One: on a CPU an encoder pass costs the same per window in a batch as alone (Chromium,
   * whisper-tiny-sized weights, 10-min recording: 16 windows in 7 passes of up to four took
   * 7.0 s, one at a time 6.9 s), while the runtime's memory, which never shrinks, grows with the
   * widest pass (docs/benchmarks.md, "Windows decoded together"). The decoder's steps are where
   * a batch saves.
   */
  encoderBatch: 1,
  /**
   * The first segment waits for its window's speech to be found and all of its tokens decoded:
   * a short window is found sooner and needs fewer tokens (docs/benchmarks.md, "The first
   * segment"), at the cost of one more encoder pass per channel.
   */
  firstWindowSeconds: 8,
  firstWindowMinSeconds: 3,
};

export interface DiarizationSettings {
  /** Seconds of a local speaker's audio an embedding is made from, at least... */
  readonly minEmbeddingSeconds: number;
  /** ...and at most. */
  readonly maxEmbeddingSeconds: number;
  /** Windows the segmentation model is given at once. */
  readonly segmentationBatch: number;
  /** Stretches of one length the embedding model is given at once. */
  readonly embeddingBatch: number;
  /**
   * Fewest embeddings a cluster needs to be a speaker; smaller clusters join the nearest one
   * (pyannote's `min_cluster_size`, there 12 of windows a second apart; here a window is
   * embedded about every 10 s).
   */
  readonly minClusterEmbeddings: number;
  /**
   * Seconds of silence at which a local speaker's speech is taken as separate stretches, each
   * embedded on its own, in case the segmentation model gave two people one local speaker.
   */
  readonly partGapSeconds: number;
}

export const DEFAULT_DIARIZATION_SETTINGS: Readonly<DiarizationSettings> = {
  minEmbeddingSeconds: 0.5,
  maxEmbeddingSeconds: 2,
  segmentationBatch: 4,
  /**
   * A batch shares the model's work better than single calls (ResNet34 on 2-s stretches in
   * onnxruntime-node: 4 at once took about 0.7x the time of 4 calls); more than 4 gained
   * nothing more, and the stretches waiting for a batch are held in memory.
   */
  embeddingBatch: 4,
  minClusterEmbeddings: 2,
  partGapSeconds: 0.3,
};

export interface TranslationSettings {
  /** Segments (of one source language) translated together in one call of the model. */
  readonly batchSegments: number;
}

export const DEFAULT_TRANSLATION_SETTINGS: Readonly<TranslationSettings> = {
  /**
   * A few at a time, so that progress moves and a long file does not hold every segment's
   * decoder state at once; more than one, so that the model's fixed cost per call is shared.
   */
  batchSegments: 4,
};

export interface AlignmentSettings {
  /**
   * Seconds of audio before the first word's first estimate, and the room a window keeps at
   * its end: what recognition heard can be off by about that much where it misheard words.
   */
  readonly marginSeconds: number;
  /** Seconds of audio before the last word timed that the next window starts with. */
  readonly leadSeconds: number;
  /** How far (seconds) from forced decoding's time a word's start may move to a sound onset. */
  readonly snapReachSeconds: number;
  /**
   * How far (seconds) from where recognition heard a word a segment that forced decoding
   * opens before it may start.
   */
  readonly guideReachSeconds: number;
  /**
   * Seconds between the last word timed and where the next is expected that count as a pause,
   * where the next window starts.
   */
  readonly pauseSeconds: number;
}

export const DEFAULT_ALIGNMENT_SETTINGS: Readonly<AlignmentSettings> = {
  marginSeconds: 1,
  leadSeconds: 0.3,
  // Forced decoding with the test model is off by 0.25 s at the median and 0.64 s at the 90th
  // percentile (docs/benchmarks.md): a reach well beyond that, short of two words.
  snapReachSeconds: 1.5,
  // Recognition's word starts are off by a few tenths of a second where it heard the word
  // right; a second keeps a misheard word's segment within reach of its speech.
  guideReachSeconds: 1,
  pauseSeconds: 0.3,
};

/** How a live transcription paces its work (`live/live-transcriber.ts`). */
export interface LiveSettings {
  /** New audio is scored by VAD once this many seconds of it have arrived. */
  readonly scoreEverySeconds: Seconds;
  /** Speech still going on is looked at (the provisional line) each time it grows this much. */
  readonly glanceEverySeconds: Seconds;
  /**
   * Speech without a pause that has run for this share of the recogniser's window is settled
   * window by window, as a file's long stretch is (24 s of Whisper's 30-s window).
   */
  readonly longShare: number;
  /**
   * In such a window of speech still going on, segments ending within this many seconds of its
   * end stay open: their last word may be cut off.
   */
  readonly openTailSeconds: Seconds;
  /**
   * More audio than this received and not yet listened to is being behind: provisional lines
   * are skipped until it has caught up, and the page is told how far behind it is.
   */
  readonly behindSeconds: Seconds;
  /**
   * Where the language is detected once (`automatic single language`), the first window with
   * at least this much speech decides it; shorter ones are detected for themselves only.
   */
  readonly languageSpeechSeconds: Seconds;
}

export const DEFAULT_LIVE_SETTINGS: Readonly<LiveSettings> = {
  scoreEverySeconds: 0.5,
  glanceEverySeconds: 1,
  longShare: 0.8,
  openTailSeconds: 1,
  behindSeconds: 2,
  languageSpeechSeconds: 2,
};

/** Every stage's settings, and a live transcription's (which runs the speech and recognition ones). */
export interface StageSettings {
  readonly media: MediaSettings;
  readonly speech: SpeechSettings;
  readonly recognition: RecognitionSettings;
  readonly alignment: AlignmentSettings;
  readonly diarization: DiarizationSettings;
  readonly translation: TranslationSettings;
  /** Where chapters may end and how they are described: core's defaults, measured there. */
  readonly chapters: ChapterSettings;
  readonly live: LiveSettings;
}

export const DEFAULT_STAGE_SETTINGS: Readonly<StageSettings> = {
  media: DEFAULT_MEDIA_SETTINGS,
  speech: DEFAULT_SPEECH_SETTINGS,
  recognition: DEFAULT_RECOGNITION_SETTINGS,
  alignment: DEFAULT_ALIGNMENT_SETTINGS,
  diarization: DEFAULT_DIARIZATION_SETTINGS,
  translation: DEFAULT_TRANSLATION_SETTINGS,
  chapters: CHAPTER_DEFAULTS,
  live: DEFAULT_LIVE_SETTINGS,
};

/**
 * What a caller changes of the defaults: any stage's settings, each in part (a setting that is
 * itself a group, such as recognition's `fallback`, is given whole). Plain data, so that it
 * crosses to an engine thread as it is.
 */
export type StageSettingsOverrides = {
  readonly [S in keyof StageSettings]?: Partial<StageSettings[S]>;
};

/** The defaults with `overrides` laid over them, stage by stage. */
export function stageSettings(overrides: StageSettingsOverrides = {}): StageSettings {
  const merged = { ...DEFAULT_STAGE_SETTINGS };
  for (const stage of Object.keys(merged) as (keyof StageSettings)[]) {
    const own = overrides[stage];
    // Setting by setting: a key given as undefined leaves the default.
    const given = Object.fromEntries(Object.entries(own ?? {}).filter(([, v]) => v !== undefined));
    if (Object.keys(given).length > 0)
      Object.assign(merged, { [stage]: { ...merged[stage], ...given } });
  }
  return merged;
}
