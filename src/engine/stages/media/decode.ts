import { pcmFloats } from '../../../core/audio/pcm';
import { readProbe, type MediaProbe } from '../../../core/audio/probe';
import { alignWindow } from '../../../core/audio/window-alignment';
import {
  refusedChannelCount,
  tooLong,
  tooManyChannels,
  type MediaLimits,
} from '../../../core/audio/media-limits';
import { ServiceError } from '../../../core/contract/errors';
import { SAMPLE_RATE, toSamples, toSeconds } from '../../../core/units';
import type { FfmpegPort, FfmpegRun, ProgressListener, SpillPort } from '../../ports';
import type { MediaSettings } from '../../stage-settings';
import type { DecodedPiece } from '../../streams/decoded-media';
import { ChannelBuffers, type DecodedChannels } from './channel-buffers';
import { SpilledChannels } from '../../streams/spilled-channels';
import {
  NO_SEEK_PLAN,
  anchorQueries,
  extendAnchors,
  findSeekAnchors,
  seekOptions,
  type SeekPlan,
} from './seek-anchors';

export interface DecodeOptions {
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /**
   * Seconds of audio decoded per ffmpeg run after the first. By default a window holds about
   * 8 MB of 16 kHz float output whatever the channel count (`windowOutputBytes`), so memory
   * stays bounded for any length.
   */
  windowSeconds?: number;
  /**
   * Decoding stops with `payload_too_large` past this many seconds: the probe's duration is
   * checked before, but a stream may not state one, or state less than it holds.
   */
  maxSeconds?: number;
  /**
   * The media stage's settings. Audio at least `compactFromSeconds` long (or of unknown length)
   * is kept as 16-bit samples, half the memory of floats; shorter audio keeps the decoder's
   * floats.
   */
  settings: MediaSettings;
  /**
   * Opens the scratch file compact audio is kept in instead of memory (see `SpilledChannels`),
   * or gives null where there is none; the caller closes it once nothing reads the samples. It
   * is asked for as soon as the audio is known to be long: from the probe, or, where the probe
   * said less (a header may understate its length), once the decoded audio reaches
   * `compactFromSeconds`.
   */
  spill?: SpillPort;
  /** Told the bytes of decoded samples held in memory after each window is kept. */
  onHeldBytes?: (bytes: number) => void;
}

/** Frames copied at a time when decoded audio moves to where long audio is kept (4 MB). */
const MOVE_VALUES = 1 << 20;

/**
 * Copies every sample of `from` to the end of `to`, a stretch at a time, and says the most
 * bytes both held together.
 */
function moveSamples(from: DecodedChannels, to: DecodedChannels): number {
  const count = from.channels.length;
  const frames = Math.max(1, Math.floor(MOVE_VALUES / count));
  let most = 0;
  for (let at = 0; at < from.length; at += frames) {
    const end = Math.min(from.length, at + frames);
    const interleaved = new Float32Array((end - at) * count);
    for (let c = 0; c < count; c++) {
      const samples = pcmFloats(from.channels[c]!, at, end);
      for (let f = 0; f < samples.length; f++) interleaved[f * count + c] = samples[f]!;
    }
    to.append(interleaved, 0);
    most = Math.max(most, from.heldBytes() + to.heldBytes() + interleaved.byteLength);
  }
  return most;
}

/**
 * Where ffmpeg writes each window: paths in the ffmpeg port's files, not a setting. A window is
 * written in pieces of about a megabyte, one file each (ffmpeg's segment muxer: the pieces
 * together are the bytes one file would hold). ffmpeg.wasm keeps a file being written in an
 * array that it replaces by one an eighth larger each time it fills: a 16-MB window written
 * whole left about 130 MB of replaced arrays behind it, faster than the garbage collector
 * of ffmpeg's worker returned them.
 */
const OUTPUT_PIECE_BYTES = 1 << 20;

/**
 * The pieces' paths of one decoding: its own, so that pieces a cancelled run left behind are
 * never read as another's.
 */
let decodings = 0;
function outputPieces() {
  const stem = `/murmur-window-${++decodings}-`;
  return {
    pattern: `${stem}%04d.f32`,
    piece: (index: number) => `${stem}${String(index).padStart(4, '0')}.f32`,
  };
}
type OutputPieces = ReturnType<typeof outputPieces>;

const seconds = (s: number) => s.toFixed(6);

/**
 * The end of the first look that is not kept: ffmpeg's resampler and decoder flush at a cut,
 * so the last few milliseconds before it may differ from a longer run's; everything before
 * is the same sample for sample (`ffmpeg-media.test.ts`).
 */
const LOOK_GUARD_SECONDS = 0.5;

/** ffmpeg's log lines that say why a run failed, for messages. */
function failureDetail(log: readonly string[]): string {
  const lines = log.map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('Aborted'));
  const last = lines.slice(-3).join(' / ');
  return last === '' ? '' : ` (ffmpeg: ${last.slice(0, 300)})`;
}

/** Probes the mounted media with ffprobe and reads its streams, or says what is wrong. */
export async function probeMedia(
  ffmpeg: FfmpegPort,
  input: string,
  fileName: string,
  signal?: AbortSignal,
  limits: MediaLimits = {},
): Promise<MediaProbe> {
  const output = '/murmur-probe.json';
  const run = await ffmpeg.ffprobe(
    ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', input, '-o', output],
    signal ? { signal } : {},
  );
  // A header claiming more channels than a decoder opens lists no stream: it is refused as
  // too many channels, as a count over the host's limit is, not as an unreadable file.
  const refused = refusedChannelCount(run.log);
  if (refused !== null) {
    await ffmpeg.deleteFile(output).catch(() => undefined);
    throw tooManyChannels(fileName, refused, limits);
  }
  let json = '';
  try {
    json = new TextDecoder().decode(await ffmpeg.readFile(output));
    await ffmpeg.deleteFile(output);
  } catch {
    throw new ServiceError(
      'undecodable_media',
      `"${fileName}" cannot be read as audio or video: it is damaged, truncated or in a format Murmur does not read${failureDetail(run.log)}.`,
    );
  }
  return readProbe(json, fileName);
}

function channelOf(
  interleaved: Float32Array,
  count: number,
  channel: number,
  from: number,
  to: number,
) {
  const out = new Float32Array(Math.max(0, to - from));
  for (let f = from; f < to; f++) out[f - from] = interleaved[f * count + channel]!;
  return out;
}

/** Where a window that was asked to start `leadIn` samples before the end really starts. */
function windowShift(
  buffers: DecodedChannels,
  interleaved: Float32Array,
  leadIn: number,
  settings: MediaSettings,
): number {
  const maxShift = toSamples(settings.maxShiftSeconds);
  // The first decoded samples after a seek may be a decoder's warm-up; they are not compared.
  const compareFrom = toSamples(settings.compareFromSeconds);
  const count = buffers.channels.length;
  const frames = interleaved.length / count;
  const compareTo = leadIn - maxShift;
  if (frames < compareTo || compareTo <= compareFrom) return 0;
  const base = buffers.length - leadIn;
  // Compare on the loudest channel of the overlap.
  let bestChannel = 0;
  let bestEnergy = -1;
  for (let c = 0; c < count; c++) {
    let energy = 0;
    for (let f = compareFrom; f < compareTo; f++) energy += interleaved[f * count + c]! ** 2;
    if (energy > bestEnergy) {
      bestEnergy = energy;
      bestChannel = c;
    }
  }
  const probe = channelOf(interleaved, count, bestChannel, compareFrom, compareTo);
  const reference = pcmFloats(
    buffers.channels[bestChannel]!,
    base + compareFrom - maxShift,
    base + compareTo + maxShift,
  );
  const { lag, correlation } = alignWindow(reference, probe, maxShift);
  return correlation >= settings.minAlignmentCorrelation ? lag : 0;
}

/**
 * The one array a decoding reads its windows into, each in turn: a window is copied into the
 * channels before the next is read, so a new array of about 8 MB per window would only be
 * garbage, which a busy worker's collector lets pile up between its passes.
 */
class WindowArray {
  private floats = new Float32Array(0);

  /** The array, with room for `length` floats at least (its contents are not kept). */
  atLeast(length: number): Float32Array {
    if (this.floats.length < length) this.floats = new Float32Array(length);
    return this.floats;
  }

  /** A larger array of `length` floats, with the first `kept` of the old one. */
  grown(length: number, kept: number): Float32Array {
    const grown = new Float32Array(length);
    grown.set(this.floats.subarray(0, kept));
    this.floats = grown;
    return grown;
  }
}

/**
 * Reads the pieces of a window ffmpeg wrote, in order, into one array, deleting each once read:
 * `expected` floats are made room for at first (the span asked for), so that neither side
 * holds more than the window and one piece.
 */
async function readWindow(
  ffmpeg: FfmpegPort,
  pieces: OutputPieces,
  expected: number,
  into: WindowArray,
): Promise<Float32Array> {
  let floats = into.atLeast(expected);
  let bytes = 0;
  for (let index = 0; ; index++) {
    let piece: Uint8Array;
    try {
      piece = await ffmpeg.readFile(pieces.piece(index));
    } catch {
      break;
    }
    await ffmpeg.deleteFile(pieces.piece(index));
    if (bytes + piece.length > floats.byteLength) {
      floats = into.grown(Math.ceil((bytes + piece.length) / 4) + expected / 8, bytes / 4);
    }
    new Uint8Array(floats.buffer).set(piece, bytes);
    bytes += piece.length;
  }
  return floats.subarray(0, Math.floor(bytes / 4));
}

/** Whether the audio is kept 16-bit: long enough, or of unknown length. */
export function keptCompact(probe: MediaProbe, settings: MediaSettings): boolean {
  return probe.duration === null || probe.duration >= settings.compactFromSeconds;
}

/**
 * Decodes the audio stream of the mounted media to 16 kHz float32, one array per channel,
 * window by window: each ffmpeg run reads only its stretch of the file (a seek), so neither
 * the whole file nor its decode at the source rate is ever held in memory. Streams without an
 * index are read from a packet's byte (`seek-anchors.ts`); seek errors of other compressed
 * formats are corrected by matching each window's lead-in.
 */
export async function* decodeChannels(
  ffmpeg: FfmpegPort,
  input: string,
  probe: MediaProbe,
  fileName: string,
  options: DecodeOptions,
): AsyncGenerator<DecodedPiece> {
  const { settings } = options;
  const count = probe.channels;
  const windowSeconds =
    options.windowSeconds ??
    Math.max(
      settings.minWindowSeconds,
      Math.floor(toSeconds(settings.windowOutputBytes / (4 * count))),
    );
  if (!(windowSeconds >= 2)) throw new RangeError('windowSeconds must be at least 2.');
  const window = toSamples(windowSeconds);
  const leadIn = toSamples(settings.leadInSeconds);
  const expected =
    probe.duration === null
      ? window
      : toSamples(Math.min(probe.duration + 1, settings.firstCapacitySeconds));
  let compact = keptCompact(probe, settings);
  const file = compact ? ((await options.spill?.()) ?? null) : null;
  let buffers: DecodedChannels = file
    ? new SpilledChannels(file, count)
    : new ChannelBuffers(count, expected, compact);
  let long = compact;
  // What the header said is not trusted: audio that turns out long once decoded is moved to
  // where long audio is kept (the scratch file, or 16 bits in memory) as soon as it is known,
  // and the memory it held is let go.
  const keep = async (interleaved: Float32Array, from: number) => {
    buffers.append(interleaved, from);
    let held = buffers.heldBytes();
    if (!long && toSeconds(buffers.length) >= settings.compactFromSeconds) {
      long = true;
      const spilled = (await options.spill?.()) ?? null;
      const next: DecodedChannels = spilled
        ? new SpilledChannels(spilled, count)
        : new ChannelBuffers(count, Math.max(expected, buffers.length), true);
      if (spilled || !compact) {
        held = Math.max(held, moveSamples(buffers, next));
        buffers = next;
        compact = true;
      }
    }
    options.onHeldBytes?.(Math.max(held, buffers.heldBytes()));
  };
  const pieces = outputPieces();
  const windowArray = new WindowArray();
  const output = [
    '-map',
    `0:${probe.streamIndex}`,
    '-vn',
    '-sn',
    '-dn',
    '-ac',
    String(count),
    '-ar',
    String(SAMPLE_RATE),
    '-c:a',
    'pcm_f32le',
    '-f',
    'segment',
    '-segment_format',
    'f32le',
    '-segment_time',
    seconds(toSeconds(OUTPUT_PIECE_BYTES / (4 * count))),
    pieces.pattern,
  ];
  /** The floats of `span` seconds of decoded audio, and a second more. */
  const floatsOf = (span: number) => (toSamples(span) + SAMPLE_RATE) * count;
  const failures: string[] = [];
  // Found on the second window's turn, so the first is not held up by a pass over the file.
  let anchors: Promise<SeekPlan> | null = null;
  const seekFor = async (start: number) => {
    anchors ??= findSeekAnchors(
      ffmpeg,
      input,
      probe,
      anchorQueries(probe, toSeconds(window), settings),
      settings,
      options.signal,
    ).catch(() => NO_SEEK_PLAN);
    const plan = await anchors;
    const at = toSeconds(start - leadIn);
    await extendAnchors(ffmpeg, input, probe, plan, at, settings, options.signal);
    return seekOptions(plan, probe, at, toSeconds(window + leadIn), settings);
  };
  const decodeWindow = (k: number) => {
    const start = buffers.length;
    const span = k === 0 ? window : window + leadIn;
    const run = (async () =>
      ffmpeg.exec(
        [
          '-hide_banner',
          '-nostats',
          '-v',
          'warning',
          ...(k === 0 ? ['-t', seconds(toSeconds(span))] : await seekFor(start)),
          '-i',
          input,
          ...output,
        ],
        options.signal ? { signal: options.signal } : {},
      ))();
    // Awaited in its turn; a failure while the previous window's work runs is not unhandled.
    run.catch(() => undefined);
    return run;
  };
  // The first look: the start of the first window, decoded alone and handed over while the
  // whole window decodes. The window's samples then continue where the look's kept part ends.
  let looked = 0;
  const look = settings.firstLookSeconds;
  const looking =
    look > 0 &&
    toSeconds(window) > look + 2 * LOOK_GUARD_SECONDS &&
    (probe.duration === null || probe.duration > look + 2 * LOOK_GUARD_SECONDS);
  let next: Promise<FfmpegRun>;
  if (looking) {
    const run = await ffmpeg.exec(
      ['-hide_banner', '-nostats', '-v', 'warning', '-t', seconds(look), '-i', input, ...output],
      options.signal ? { signal: options.signal } : {},
    );
    // Read whatever the run wrote, so that none of it is taken for the window's.
    const written = await readWindow(ffmpeg, pieces, floatsOf(look), windowArray).catch(
      () => new Float32Array(0),
    );
    const interleaved = run.exitCode === 0 ? written : new Float32Array(0);
    next = decodeWindow(0);
    const kept = toSamples(look - LOOK_GUARD_SECONDS);
    // A look that came back short (a stream shorter than it states) is left to the window.
    if (interleaved.length / count >= kept) {
      await keep(interleaved.subarray(0, kept * count), 0);
      looked = kept;
      yield { channels: buffers.channels, length: buffers.length, ended: false };
    }
  } else {
    next = decodeWindow(0);
  }
  for (let k = 0; ; k++) {
    options.signal?.throwIfAborted();
    const run = await next;
    failures.push(...run.log);
    let interleaved: Float32Array;
    try {
      interleaved = await readWindow(
        ffmpeg,
        pieces,
        floatsOf(toSeconds(k === 0 ? window : window + leadIn)),
        windowArray,
      );
    } catch {
      interleaved = new Float32Array(0);
    }
    if (run.exitCode !== 0 && interleaved.length === 0) {
      if (k === 0) {
        throw new ServiceError(
          'undecodable_media',
          `"${fileName}" has an audio track (${probe.codec}) that cannot be decoded: the file may be damaged or truncated${failureDetail(run.log)}.`,
        );
      }
      break;
    }
    const shift = k === 0 ? 0 : windowShift(buffers, interleaved, leadIn, settings);
    const from = k === 0 ? looked : leadIn - shift;
    const before = buffers.length;
    await keep(interleaved, from);
    const added = buffers.length - before;
    const decoded = toSeconds(buffers.length);
    if (options.maxSeconds !== undefined && decoded > options.maxSeconds) {
      throw tooLong(fileName, null, options.maxSeconds);
    }
    options.onProgress?.(
      probe.duration === null ? null : Math.min(1, decoded / probe.duration),
      `Decoding audio: ${Math.floor(decoded)} s${probe.duration === null ? '' : ` of ${Math.round(probe.duration)} s`}`,
    );
    // A window that came back short reached the end of the stream.
    const ended = added + (k === 0 ? looked : 0) < window - toSamples(0.5);
    if (ended) break;
    // The next window decodes while the caller works on this one.
    next = decodeWindow(k + 1);
    yield { channels: buffers.channels, length: buffers.length, ended: false };
  }
  checkComplete(probe, toSeconds(buffers.length), failures, fileName, settings);
  yield { channels: buffers.finish(), length: buffers.length, ended: true };
}

/**
 * A file that decodes to much less than it declares, with the decoder complaining, is cut
 * short: an incomplete download or copy. Transcribing the part that remains would pass off a
 * fragment as the recording, so it is refused with what was found.
 */
function checkComplete(
  probe: MediaProbe,
  decoded: number,
  log: readonly string[],
  fileName: string,
  settings: MediaSettings,
) {
  if (decoded === 0 && !(probe.duration !== null && probe.duration > 0)) {
    // A header with no samples after it (a WAV cut after its header) is not silence to transcribe.
    throw new ServiceError(
      'undecodable_media',
      `"${fileName}" holds no audio samples: nothing follows its header.`,
    );
  }
  if (decoded === 0) {
    throw new ServiceError(
      'undecodable_media',
      `"${fileName}" holds no decodable audio${failureDetail(log)}.`,
    );
  }
  const declared = probe.duration;
  if (declared === null || declared < 1) return;
  const complaint = log.some((l) =>
    /do not match|truncat|invalid data|error while decoding|partial file|corrupt/i.test(l),
  );
  if (decoded < declared * settings.minDecodedShare && complaint) {
    throw new ServiceError(
      'undecodable_media',
      `"${fileName}" is truncated or damaged: it declares ${declared.toFixed(1)} s of audio but only ${decoded.toFixed(1)} s could be decoded. Use the complete file.`,
    );
  }
}
