import {
  channelBilling,
  silentChannelCount,
  similarChannelCount,
  type ChannelVerdict,
} from '../../core/audio/billing';
import { areSimilar, compareChannels } from '../../core/audio/channel-similarity';
import { peakLevelDb } from '../../core/audio/levels';
import { providedFileMetadata } from '../../core/audio/probe';
import { isSilentChannel, SILENT_PEAK_DB } from '../../core/audio/silence';
import { noiseFramesOutside, spectralDenoise } from '../../core/audio/spectral-denoise';
import {
  settledSpeechRegions,
  spanDuration,
  speechRegions,
  type TimeSpan,
} from '../../core/audio/speech-regions';
import type { MediaFile, TranscriptionRequest } from '../../core/contract/request';
import type { Clock, MediaPorts, ProgressListener } from '../ports';
import { decodeChannels, probeMedia } from './decode';
import { ChannelFeed, type GrowingChannel } from './growing-channel';
import { mediaSource } from './media-input';
import type { ChannelAudio, PreparedAudio } from './prepared-audio';
import { SAMPLE_RATE } from './prepared-audio';
import { VAD_WINDOW, type SpeechDetector } from './silero-vad';

export interface PrepareAudioOptions {
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /** Seconds per decoding window (see `DecodeOptions.windowSeconds`); tests make it small. */
  windowSeconds?: number;
  /** The Silero VAD model id in the model files (default: the production model). */
  vadModelId?: string;
  /**
   * Called once decoding starts, for a file of one channel without noise reduction, where
   * speech detection runs apart (`MediaPorts.speechDetectionApart`): the
   * channel as it is decoded and its speech as it is found, so that recognition can start
   * before the media stage ends. It completes with the channel's final speech (none if the
   * channel turns out silent) or fails with the media stage.
   */
  onGrowingChannel?: (channel: GrowingChannel) => void;
}

/**
 * Loads what the media stage runs (ffmpeg's core and the VAD model) ahead of the first
 * request, so that a file dropped later starts decoding at once. Both stay loaded.
 */
export async function warmMediaStage(
  ports: MediaPorts,
  options: { signal?: AbortSignal; vadModelId?: string } = {},
): Promise<void> {
  await Promise.all([
    ports.ffmpeg.load(),
    ports.speechDetector({
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.vadModelId ? { modelId: options.vadModelId } : {}),
    }),
  ]);
}

/** VAD pieces need at least this many windows (about 30 s), so that batches stay wide. */
const MIN_PIECE_WINDOWS = Math.round((30 * SAMPLE_RATE) / VAD_WINDOW);
/**
 * When recognition starts on a channel before its speech is all found, the first piece is
 * at most this long (64 s: about 40 s of speech streams, more than one model window), so that
 * recognition starts early; later pieces are as wide as the audio decoded.
 */
const FIRST_PIECE_WINDOWS = Math.round((64 * SAMPLE_RATE) / VAD_WINDOW);

/**
 * Speech probabilities of every channel, scored piece by piece as the channels are decoded. A
 * piece whose peak is below the silence level is not scored (its windows hold no speech).
 */
class ChannelScoring {
  /** Windows scored so far (the same in every channel). */
  private done = 0;
  private readonly pieces: Float32Array[][] = [];
  /** Seconds spent scoring while decoding went on (not counting the final piece). */
  secondsWhileDecoding = 0;

  /** Called after each piece with the channels and the samples scored (a growing channel). */
  onScored: ((channels: readonly Float32Array[], length: number) => void) | null = null;

  constructor(
    private readonly detector: Promise<SpeechDetector>,
    private readonly clock: Clock,
    private readonly signal?: AbortSignal,
  ) {}

  async score(
    channels: readonly Float32Array[],
    length: number,
    final: boolean,
    onProgress?: ProgressListener,
  ): Promise<void> {
    const started = this.clock();
    try {
      // With a growing channel, the first piece is short; then one piece takes the rest.
      const first = this.onScored && this.done === 0 ? FIRST_PIECE_WINDOWS : Infinity;
      if (await this.scorePiece(channels, length, final, first, onProgress)) {
        await this.scorePiece(channels, length, final, Infinity, onProgress);
      }
    } finally {
      if (!final) this.secondsWhileDecoding += this.clock() - started;
    }
  }

  /** Scores up to `limit` more windows (on stream boundaries); true if it scored any. */
  private async scorePiece(
    channels: readonly Float32Array[],
    length: number,
    final: boolean,
    limit: number,
    onProgress?: ProgressListener,
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
    if (to <= this.done || (!final && to - this.done < MIN_PIECE_WINDOWS)) return false;
    for (const [index, channel] of channels.entries()) {
      const samples = channel.subarray(0, length);
      const piece = samples.subarray(this.done * VAD_WINDOW, to * VAD_WINDOW);
      (this.pieces[index] ??= []).push(
        peakLevelDb(piece) < SILENT_PEAK_DB
          ? new Float32Array(to - this.done)
          : await detector.probabilities(samples, {
              from: this.done,
              to,
              ...(this.signal ? { signal: this.signal } : {}),
              ...(onProgress
                ? {
                    onProgress: (fraction: number | null, detail: string) =>
                      onProgress(
                        fraction === null ? null : (index + fraction) / channels.length,
                        channels.length > 1
                          ? `${detail} (channel ${index + 1} of ${channels.length})`
                          : detail,
                      ),
                  }
                : {}),
            }),
      );
    }
    this.done = to;
    const scored = Math.min(length, to * VAD_WINDOW);
    this.onScored?.(channels, scored);
    return true;
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

/** What channel analysis found in one channel. */
interface ChannelAnalysis {
  index: number;
  peakDb: number;
  speech: TimeSpan[];
}

/**
 * The media stage: the request's file or URL is read, decoded with ffmpeg to 16 kHz per
 * channel, each channel checked for speech with Silero VAD, channels with the same content
 * found, billing worked out (spec section 8), and the distinct channels with speech handed on,
 * denoised when `toggle_noise_reduction` is set (a spectral Wiener filter whose noise is
 * measured where VAD found no speech; see core/audio/spectral-denoise.ts). An all-silent file
 * is a valid, empty result.
 */
export async function prepareAudio<F extends MediaFile>(
  request: TranscriptionRequest<F>,
  ports: MediaPorts,
  options: PrepareAudioOptions = {},
): Promise<PreparedAudio> {
  const { signal } = options;
  // The model loads while the media is read and decoded.
  const vad = ports.speechDetector({
    ...(signal ? { signal } : {}),
    ...(options.vadModelId ? { modelId: options.vadModelId } : {}),
  });
  vad.catch(() => undefined);

  // A growing channel handed out is failed with the stage, so that nothing waits on it.
  const handedOut: ChannelFeed[] = [];
  try {
    return await prepare(request, ports, options, vad, (feed) => handedOut.push(feed));
  } catch (thrown) {
    for (const feed of handedOut) feed.fail(thrown);
    throw thrown;
  }
}

async function prepare<F extends MediaFile>(
  request: TranscriptionRequest<F>,
  ports: MediaPorts,
  options: PrepareAudioOptions,
  vad: Promise<SpeechDetector>,
  started: (feed: ChannelFeed) => void,
): Promise<PreparedAudio> {
  const { signal, onProgress } = options;
  const passOn = { ...(signal ? { signal } : {}), ...(onProgress ? { onProgress } : {}) };
  const source = await mediaSource(request.media, request.endpoint, ports, passOn);
  const fileName = source.kind === 'file' ? source.file.name : source.name;

  // VAD scores each channel piece by piece while ffmpeg decodes the next window (see
  // `DecodeOptions.onDecoded`); whatever is left is scored once decoding ends.
  const scoring = new ChannelScoring(vad, ports.clock, signal);
  const decodeStarted = ports.clock();
  let feed: ChannelFeed | null = null;
  const input = await ports.ffmpeg.mount(source);
  let decoded;
  try {
    const probe = await probeMedia(ports.ffmpeg, input, fileName, signal);
    const { onGrowingChannel } = options;
    if (
      onGrowingChannel &&
      ports.speechDetectionApart &&
      probe.channels === 1 &&
      !request.toggle_noise_reduction
    ) {
      const channel = new ChannelFeed(0, new Float32Array(0), probe.duration ?? 0);
      feed = channel;
      started(channel);
      scoring.onScored = (channels, length) =>
        channel.update(
          channels[0]!.subarray(0, length),
          settledSpeechRegions(scoring.probabilities(0), length / SAMPLE_RATE, false),
        );
      onGrowingChannel(channel);
    }
    decoded = await decodeChannels(ports.ffmpeg, input, probe, fileName, {
      ...passOn,
      ...(options.windowSeconds ? { windowSeconds: options.windowSeconds } : {}),
      onDecoded: (channels, length) => scoring.score(channels, length, false),
    });
  } finally {
    await ports.ffmpeg.unmount(input);
  }
  // The time spent waiting for ffmpeg; VAD run in between is VAD time.
  let conversionTime = ports.clock() - decodeStarted - scoring.secondsWhileDecoding;

  const vadStarted = ports.clock();
  const length = decoded.channels[0]?.length ?? 0;
  await scoring.score(decoded.channels, length, true, onProgress);
  const analyses: ChannelAnalysis[] = decoded.channels.map((samples, index) => {
    const peakDb = peakLevelDb(samples);
    const speech = isSilentChannel(peakDb, null)
      ? []
      : speechRegions(scoring.probabilities(index), decoded.duration);
    return { index, peakDb, speech };
  });

  const verdicts: ChannelVerdict[] = [];
  for (const a of analyses) {
    const silent = isSilentChannel(a.peakDb, spanDuration(a.speech));
    let similarTo: number | null = null;
    if (!silent) {
      for (const earlier of verdicts) {
        if (earlier.silent || earlier.similarTo !== null) continue;
        const comparison = compareChannels(
          decoded.channels[earlier.index]!,
          decoded.channels[a.index]!,
          SAMPLE_RATE,
        );
        if (areSimilar(comparison)) {
          similarTo = earlier.index;
          break;
        }
      }
    }
    verdicts.push({ index: a.index, silent, similarTo });
  }
  const vadTime = ports.clock() - vadStarted + scoring.secondsWhileDecoding;

  const kept = verdicts.filter((v) => !v.silent && v.similarTo === null);
  const channels: ChannelAudio[] = [];
  const denoiseStarted = ports.clock();
  for (const v of kept) {
    let samples = decoded.channels[v.index]!;
    if (request.toggle_noise_reduction) {
      onProgress?.(null, `Reducing noise${kept.length > 1 ? ` (channel ${v.index + 1})` : ''}`);
      signal?.throwIfAborted();
      // The noise is measured where VAD found no speech.
      const noiseFrames = noiseFramesOutside(
        analyses[v.index]!.speech,
        samples.length,
        SAMPLE_RATE,
      );
      samples = spectralDenoise(samples, { noiseFrames });
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    channels.push({ index: v.index, samples, speech: analyses[v.index]!.speech });
  }
  const noiseReductionTime = request.toggle_noise_reduction ? ports.clock() - denoiseStarted : 0;
  feed?.finish(decoded.channels[0]!, channels.find((c) => c.index === 0)?.speech ?? []);
  conversionTime += noiseReductionTime;

  return {
    file: providedFileMetadata(decoded.probe, decoded.duration, similarChannelCount(verdicts)),
    nbSilentChannels: silentChannelCount(verdicts),
    channels,
    billing: channelBilling(verdicts, decoded.duration),
    totalSpeechDuration: channels.reduce((sum, c) => sum + spanDuration(c.speech), 0),
    timings: {
      audio_conversion_time: conversionTime,
      vad_time: vadTime,
      noise_reduction_time: noiseReductionTime,
    },
  };
}
