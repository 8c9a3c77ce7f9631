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
 *
 * The encoder's padding at the end of an mp3 is declared in the header at the start of the
 * file, which a read from a later byte does not see: the decoder would keep it. The same pass
 * reads the last seconds of packets, whose last one carries the padding to drop, so the window
 * that reaches the end is read from a packet's byte too, cut where the padding starts. Without
 * that (the listing of the end is missing) it is sought from the start, which reads the whole
 * file again.
 *
 * A header may state less than the stream holds (an mp3 without a frame count whose first
 * packets are dense, or one file appended to another): the listing of the stated end then shows
 * packets going on past it. Where none of them carries padding to drop, nothing the header says
 * changes the samples after it, and the windows past the listed packets are read from bytes
 * too, each found by a listing that starts at the packet before it (`extendAnchors`): every
 * window then reads a window's worth of file, not the file up to it.
 */

/** ffprobe's names of the formats that are read this way. */
const BARE_PACKET_FORMATS = new Set(['mp3', 'aac']);

/** A packet's time on the stream's clock and the byte of the file it starts at. */
export interface SeekAnchor {
  time: Seconds;
  byte: number;
}

/** What the pass over the file found: packets to read from, and where the audio ends. */
export interface SeekPlan {
  anchors: SeekAnchor[];
  /**
   * Where the decoded audio ends, on the stream's clock (the last packet's end, less the
   * padding it says to drop); null when the end was not listed.
   */
  end: Seconds | null;
  /**
   * The stream goes on past its stated end with no padding to drop there (`readGoesOn`): every
   * window may be read from a packet's byte, and windows past the listed packets find theirs
   * as decoding reaches them.
   */
  goesOn: boolean;
}

export const NO_SEEK_PLAN: SeekPlan = { anchors: [], end: null, goesOn: false };

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
  const end = endQuery(probe, settings);
  // Window k starts `leadIn` before k windows of decoded audio; the listing of the end holds
  // the packets of the windows that start in it.
  for (let k = 1; k * windowSeconds < duration; k++) {
    const at = k * windowSeconds - settings.leadInSeconds;
    const query = Math.max(0, at + probe.startTime - settings.anchorWarmUpSeconds);
    if (query >= end) break;
    queries.push(query);
  }
  return queries;
}

/** From where, on the stream's clock, the packets up to the end are listed. */
export function endQuery(probe: MediaProbe, settings: MediaSettings): Seconds {
  return Math.max(
    0,
    (probe.duration ?? 0) +
      probe.startTime -
      settings.anchorEndMarginSeconds -
      settings.anchorWarmUpSeconds,
  );
}

/**
 * Whether a window can be read from an anchor without knowing the end: it ends well before the
 * stream's stated end (which may be an estimate).
 */
function clearOfEnd(probe: MediaProbe, at: Seconds, span: Seconds, settings: MediaSettings) {
  return probe.duration !== null && at + span <= probe.duration - settings.anchorEndMarginSeconds;
}

interface ListedPacket {
  pts?: string | number;
  pts_time?: string;
  duration_time?: string;
  pos?: string;
  size?: string;
  side_data_list?: { discard_padding?: number }[];
}

interface Listing {
  packets?: unknown;
  format?: { size?: string };
  streams?: { time_base?: string }[];
}

function listing(json: string): Listing {
  try {
    const parsed = JSON.parse(json) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Listing) : {};
  } catch {
    return {};
  }
}

function listedPackets(json: string): ListedPacket[] {
  const { packets } = listing(json);
  return Array.isArray(packets) ? (packets as ListedPacket[]) : [];
}

/**
 * Bytes that may follow the last packet of a file whose end was listed: a tag after the audio
 * (ID3v1's 128 bytes, a short APE or Lyrics3 tag). A last packet further from the file's end
 * may not be the stream's last (at 8 kbps a second of audio is 1000 bytes): the end is then
 * not known, and the window that reaches it is sought from the start, which is slower but
 * exact.
 */
const TRAILING_TAG_BYTES = 1024;

/** Reads ffprobe's JSON listing of packets into anchors, in time order. */
export function readAnchors(json: string): SeekAnchor[] {
  const anchors: SeekAnchor[] = [];
  for (const packet of listedPackets(json)) {
    const time = Number(packet.pts_time);
    const byte = Number(packet.pos);
    if (packet.pts_time === undefined || packet.pos === undefined) continue;
    if (!Number.isFinite(time) || !Number.isInteger(byte) || byte < 0) continue;
    anchors.push({ time, byte });
  }
  return anchors.sort((a, b) => a.time - b.time);
}

/**
 * Where the audio ends, on the stream's clock, from a listing of the packets from `from`: the
 * last packet's end, or, where packets carry padding to drop, the earliest point it starts
 * (padding longer than a packet is spread over the last two). Null when the listing does not
 * show the end: no packet of that stretch was listed (the stated length was too long, or the
 * listing failed), or the last one listed is not where the file's bytes end (the stream goes
 * on past the listing: it is longer than it states, or the listing was cut short). A stream
 * is never taken to end where its bytes go on.
 */
export function readStreamEnd(json: string, from: Seconds, sampleRate: number): Seconds | null {
  const packets: { time: Seconds; end: Seconds; padding: number; bytesEnd: number }[] = [];
  for (const packet of listedPackets(json)) {
    const time = Number(packet.pts_time);
    const duration = Number(packet.duration_time);
    if (packet.pts_time === undefined || packet.duration_time === undefined) continue;
    if (!Number.isFinite(time) || !Number.isFinite(duration) || duration < 0) continue;
    const padding = (packet.side_data_list ?? []).reduce(
      (sum, data) => sum + (Number.isInteger(data.discard_padding) ? data.discard_padding! : 0),
      0,
    );
    const bytesEnd = Number(packet.pos) + Number(packet.size);
    packets.push({ time, end: time + duration, padding, bytesEnd });
  }
  const last = packets.reduce<(typeof packets)[number] | null>(
    (latest, p) => (latest === null || p.time > latest.time ? p : latest),
    null,
  );
  if (last === null || last.time < from) return null;
  const fileBytes = Number(listing(json).format?.size);
  if (!(Number.isFinite(last.bytesEnd) && fileBytes - last.bytesEnd <= TRAILING_TAG_BYTES)) {
    return null;
  }
  let end = last.end;
  // The last packet, and the one that ends where it starts (times are printed to the microsecond).
  for (const p of packets) {
    if (p.padding > 0 && p.end >= last.time - 1e-5)
      end = Math.min(end, p.end - p.padding / sampleRate);
  }
  return end;
}

/**
 * Whether a listing of the packets from `from` shows the stream going on past its stated end
 * (`statedEnd`, on the stream's clock) with nothing to drop: packets listed at least
 * `anchorEndMarginSeconds` past it, none carrying padding, and the last one not where the
 * file's bytes end. A header's padding lies at the end it states, inside that listing; a
 * listing cut short before it (an ffprobe that stopped early) shows no packet that far and is
 * not taken for one.
 */
export function readGoesOn(json: string, statedEnd: Seconds, settings: MediaSettings): boolean {
  const packets = listedPackets(json);
  if (packets.some((p) => (p.side_data_list ?? []).some((d) => (d.discard_padding ?? 0) !== 0)))
    return false;
  const last = Math.max(
    -Infinity,
    ...packets.map((p) => Number(p.pts_time)).filter(Number.isFinite),
  );
  if (!(last >= statedEnd + settings.anchorEndMarginSeconds)) return false;
  const lastPacket = packets.find((p) => Number(p.pts_time) === last)!;
  const bytesEnd = Number(lastPacket.pos) + Number(lastPacket.size);
  const fileBytes = Number(listing(json).format?.size);
  return Number.isFinite(bytesEnd) && fileBytes - bytesEnd > TRAILING_TAG_BYTES;
}

/**
 * One ffprobe pass that finds a packet at each query time and lists the packets from
 * `endQuery` to the end of the file. No anchors (the format is not read this way, or ffprobe
 * failed) leave every window to an ordinary seek.
 */
export async function findSeekAnchors(
  ffmpeg: FfmpegPort,
  input: string,
  probe: MediaProbe,
  queries: readonly Seconds[],
  settings: MediaSettings,
  signal?: AbortSignal,
): Promise<SeekPlan> {
  if (queries.length === 0) return NO_SEEK_PLAN;
  const output = '/murmur-anchors.json';
  const end = endQuery(probe, settings);
  await ffmpeg.ffprobe(
    [
      '-v',
      'error',
      '-select_streams',
      `${probe.streamIndex}`,
      '-read_intervals',
      [
        ...queries.map((t) => `${t.toFixed(3)}%+#1`),
        `${end.toFixed(3)}%+${settings.anchorEndListingSeconds}`,
      ].join(','),
      '-show_entries',
      'packet=pts_time,duration_time,pos,size:packet_side_data=discard_padding:format=size',
      '-print_format',
      'json',
      input,
      '-o',
      output,
    ],
    signal ? { signal } : {},
  );
  try {
    const json = new TextDecoder().decode(await ffmpeg.readFile(output));
    const streamEnd = readStreamEnd(json, end, probe.sampleRate);
    return {
      anchors: readAnchors(json),
      end: streamEnd,
      goesOn:
        streamEnd === null && readGoesOn(json, (probe.duration ?? 0) + probe.startTime, settings),
    };
  } catch {
    return NO_SEEK_PLAN;
  } finally {
    await ffmpeg.deleteFile(output).catch(() => undefined);
  }
}

/**
 * The input options that make ffmpeg decode `span` seconds from `at` seconds of decoded audio:
 * from the latest anchor a warm-up before it, or an ordinary seek where there is none. A window
 * that reaches the end is read from an anchor only where the end is known, and stops there.
 */
export function seekOptions(
  plan: SeekPlan,
  probe: MediaProbe,
  at: Seconds,
  span: Seconds,
  settings: MediaSettings,
): string[] {
  const seconds = (s: Seconds) => s.toFixed(6);
  // The stream's clock runs `startTime` ahead of the decoded audio's.
  const onStream = at + probe.startTime;
  const ordinary = ['-ss', seconds(at), '-t', seconds(span)];
  // Where the padding starts, the read stops; before the end it is the window's own length.
  let length = span;
  if (!clearOfEnd(probe, at, span, settings) && !plan.goesOn) {
    if (plan.end === null || !(plan.end > onStream)) return ordinary;
    length = Math.min(span, plan.end - onStream);
  }
  const anchor = anchorBefore(plan, onStream, settings);
  if (anchor === undefined) return ordinary;
  // Read from the packet's byte, ffmpeg's clock starts at 0 there, and nothing is dropped.
  return [
    '-skip_initial_bytes',
    String(anchor.byte),
    '-f',
    probe.formatName,
    '-ss',
    seconds(onStream - anchor.time),
    '-t',
    seconds(length),
  ];
}

/** The latest anchor at least `anchorMinWarmUpSeconds` before `onStream`, if any. */
function anchorBefore(plan: SeekPlan, onStream: Seconds, settings: MediaSettings) {
  let anchor: SeekAnchor | undefined;
  for (const a of plan.anchors) {
    if (a.time > onStream - settings.anchorMinWarmUpSeconds) break;
    anchor = a;
  }
  return anchor;
}

/** A time base such as "1/14112000" in seconds, or null. */
function timeBase(text: string | undefined): number | null {
  const match = /^(\d+)\/(\d+)$/.exec(text ?? '');
  if (match === null || Number(match[2]) === 0) return null;
  return Number(match[1]) / Number(match[2]);
}

/**
 * Finds the packet near `query` (on the stream's clock) by listing the stream from `from`'s
 * byte, so that only the file between the two is read. Read from that byte, ffmpeg's clock
 * starts at 0 at its packet: times are counted from it in the stream's own units (whole
 * numbers), so that chained listings add no rounding of printed times.
 */
export async function findAnchorAfter(
  ffmpeg: FfmpegPort,
  input: string,
  probe: MediaProbe,
  from: SeekAnchor,
  query: Seconds,
  signal?: AbortSignal,
): Promise<SeekAnchor | null> {
  const output = '/murmur-anchor-after.json';
  try {
    await ffmpeg.ffprobe(
      [
        '-v',
        'error',
        '-skip_initial_bytes',
        String(from.byte),
        '-f',
        probe.formatName,
        '-select_streams',
        '0',
        '-read_intervals',
        `0%+#1,${(query - from.time).toFixed(3)}%+#1`,
        '-show_entries',
        'packet=pts,pos:stream=time_base',
        '-print_format',
        'json',
        input,
        '-o',
        output,
      ],
      signal ? { signal } : {},
    );
  } catch {
    // A listing that fails leaves the window to an ordinary seek; a cancel ends the decoding.
    signal?.throwIfAborted();
    return null;
  }
  try {
    const json = new TextDecoder().decode(await ffmpeg.readFile(output));
    const unit = timeBase(listing(json).streams?.[0]?.time_base);
    const [first, found] = listedPackets(json);
    if (unit === null || first === undefined || found === undefined) return null;
    const [firstPts, foundPts] = [Number(first.pts), Number(found.pts)];
    const byte = Number(found.pos);
    // The listing must start at the packet it was read from, and move on from it.
    if (Number(first.pos) !== from.byte || !Number.isInteger(byte) || byte <= from.byte)
      return null;
    if (!Number.isInteger(firstPts) || !Number.isInteger(foundPts) || foundPts <= firstPts)
      return null;
    return { time: from.time + (foundPts - firstPts) * unit, byte };
  } catch {
    return null;
  } finally {
    await ffmpeg.deleteFile(output).catch(() => undefined);
  }
}

/**
 * Where the stream goes on past its stated end (`SeekPlan.goesOn`), adds to `plan` a packet a
 * warm-up before the window that starts at `at` seconds of decoded audio, when the listed
 * packets stop well before it: found from the latest of them, so that each window's listing
 * reads about a window of file. A listing that fails leaves the window to an ordinary seek.
 */
export async function extendAnchors(
  ffmpeg: FfmpegPort,
  input: string,
  probe: MediaProbe,
  plan: SeekPlan,
  at: Seconds,
  settings: MediaSettings,
  signal?: AbortSignal,
): Promise<void> {
  if (!plan.goesOn) return;
  const onStream = at + probe.startTime;
  const query = onStream - settings.anchorWarmUpSeconds;
  const latest = anchorBefore(plan, onStream, settings);
  if (latest === undefined || latest.time >= query - settings.anchorWarmUpSeconds) return;
  const found = await findAnchorAfter(ffmpeg, input, probe, latest, query, signal);
  if (found === null || found.time > onStream - settings.anchorMinWarmUpSeconds) return;
  plan.anchors.push(found);
  plan.anchors.sort((a, b) => a.time - b.time);
}
