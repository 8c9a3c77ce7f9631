import type { MediaProbe } from '../../../core/audio/probe';
import type { Seconds } from '../../../core/units';
import type { FfmpegPort } from '../../ports';
import type { MediaSettings } from '../../stage-settings';

/**
 * Fast, exact seeks into streams without an index.
 *
 * An mp3 or an ADTS AAC file is a bare run of packets: to seek exactly, ffmpeg reads every
 * packet from the start of the file up to the point, and each decoding window is a fresh
 * ffmpeg run, so window k reads k windows of file. Ten hours of mp3 then read the file about
 * seventy times over, and in the browser each read goes through a File slice.
 *
 * Such a stream can be read from any packet. One ffprobe pass over the file (it keeps its own
 * index between seeks, so the file is read once) finds, a little before where each window will
 * start, a packet's time and the byte it starts at. A window is then read from that byte
 * (`-skip_initial_bytes`), and an exact seek within the packets that follow finds its first
 * sample. The decoder runs over a second of packets before it, so its state (an mp3 frame
 * borrows bits from the frames before it) is whole, and the samples are the same as the
 * seek's from the start.
 */

/** ffprobe's names of the formats that are read this way. */
const BARE_PACKET_FORMATS = new Set(['mp3', 'aac']);

/** A packet's time on the stream's clock and the byte of the file it starts at. */
export interface SeekAnchor {
  time: Seconds;
  byte: number;
}

/** The times, on the stream's clock, near which a packet is looked for. */
export function anchorQueries(
  probe: MediaProbe,
  windowSeconds: Seconds,
  settings: MediaSettings,
): Seconds[] {
  const { duration } = probe;
  // Read from a later byte, the file is the audio stream alone, numbered 0 (a cover picture
  // lives in the tag at the start): the decoding's `-map` must name it so in both reads.
  if (!BARE_PACKET_FORMATS.has(probe.formatName) || duration === null || probe.streamIndex !== 0)
    return [];
  const queries: Seconds[] = [];
  // Window k starts `leadIn` before k windows of decoded audio.
  for (let k = 1; k * windowSeconds < duration; k++) {
    const at = k * windowSeconds - settings.leadInSeconds;
    if (!anchoredSpan(probe, at, windowSeconds + settings.leadInSeconds, settings)) break;
    queries.push(Math.max(0, at + probe.startTime - settings.anchorWarmUpSeconds));
  }
  return queries;
}

/**
 * Whether a window is read from an anchor: it must end well before the stream's stated end.
 * The encoder's padding at the end of an mp3 is known from the header at the start of the
 * file, which a read from a later byte does not see: the last window is sought from the start.
 */
function anchoredSpan(probe: MediaProbe, at: Seconds, span: Seconds, settings: MediaSettings) {
  return probe.duration !== null && at + span <= probe.duration - settings.anchorEndMarginSeconds;
}

/** Reads ffprobe's JSON listing of packets into anchors, in time order. */
export function readAnchors(json: string): SeekAnchor[] {
  let packets: unknown;
  try {
    packets = (JSON.parse(json) as { packets?: unknown }).packets;
  } catch {
    return [];
  }
  if (!Array.isArray(packets)) return [];
  const anchors: SeekAnchor[] = [];
  for (const packet of packets as { pts_time?: string; pos?: string }[]) {
    const time = Number(packet.pts_time);
    const byte = Number(packet.pos);
    if (packet.pts_time === undefined || packet.pos === undefined) continue;
    if (!Number.isFinite(time) || !Number.isInteger(byte) || byte < 0) continue;
    anchors.push({ time, byte });
  }
  return anchors.sort((a, b) => a.time - b.time);
}

/**
 * One ffprobe pass that finds a packet at each query time. An empty list (the format is not
 * read this way, or ffprobe failed) leaves every window to an ordinary seek.
 */
export async function findSeekAnchors(
  ffmpeg: FfmpegPort,
  input: string,
  probe: MediaProbe,
  queries: readonly Seconds[],
  signal?: AbortSignal,
): Promise<SeekAnchor[]> {
  if (queries.length === 0) return [];
  const output = '/murmur-anchors.json';
  await ffmpeg.ffprobe(
    [
      '-v',
      'error',
      '-select_streams',
      `${probe.streamIndex}`,
      '-read_intervals',
      queries.map((t) => `${t.toFixed(3)}%+#1`).join(','),
      '-show_entries',
      'packet=pts_time,pos',
      '-print_format',
      'json',
      input,
      '-o',
      output,
    ],
    signal ? { signal } : {},
  );
  try {
    return readAnchors(new TextDecoder().decode(await ffmpeg.readFile(output)));
  } catch {
    return [];
  } finally {
    await ffmpeg.deleteFile(output).catch(() => undefined);
  }
}

/**
 * The input options that make ffmpeg start at `at` seconds of decoded audio: from the latest
 * anchor a warm-up before it, or an ordinary seek where there is none.
 */
export function seekOptions(
  anchors: readonly SeekAnchor[],
  probe: MediaProbe,
  at: Seconds,
  span: Seconds,
  settings: MediaSettings,
): string[] {
  const seconds = (s: Seconds) => s.toFixed(6);
  // The stream's clock runs `startTime` ahead of the decoded audio's.
  const onStream = at + probe.startTime;
  let anchor: SeekAnchor | undefined;
  if (anchoredSpan(probe, at, span, settings)) {
    for (const a of anchors) {
      if (a.time > onStream - settings.anchorMinWarmUpSeconds) break;
      anchor = a;
    }
  }
  if (anchor === undefined) return ['-ss', seconds(at)];
  // Read from the packet's byte, ffmpeg's clock starts at 0 there, and nothing is dropped.
  return [
    '-skip_initial_bytes',
    String(anchor.byte),
    '-f',
    probe.formatName,
    '-ss',
    seconds(onStream - anchor.time),
  ];
}
