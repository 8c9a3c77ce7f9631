import { ServiceError } from '../contract/errors';
import type { ProvidedFileMetadata } from '../contract/response';
import type { Seconds } from '../units';

/** What a media file holds, read from ffprobe's JSON (`-show_streams -show_format`). */
export interface MediaProbe {
  /** Index of the audio stream that is decoded, among all streams. */
  streamIndex: number;
  codec: string;
  channels: number;
  sampleRate: number;
  sampleWidth: number;
  /** Null when neither the container nor the stream states it. */
  duration: Seconds | null;
  /** A picture stream beside the audio (not cover art): the file is a video. */
  hasVideo: boolean;
  formatName: string;
  /**
   * When the audio stream's first decoded sample plays (0 when not stated): an mp3 encoder's
   * leading padding, which the decoder drops, puts it after the first packet's time.
   */
  startTime: Seconds;
}

interface ProbeStream {
  index?: number;
  codec_type?: string;
  codec_name?: string;
  codec_tag_string?: string;
  codec_tag?: string;
  sample_fmt?: string;
  sample_rate?: string;
  channels?: number;
  bits_per_sample?: number;
  bits_per_raw_sample?: string;
  duration?: string;
  start_time?: string;
  disposition?: { attached_pic?: number };
}

interface ProbeJson {
  streams?: ProbeStream[];
  format?: { format_name?: string; duration?: string };
}

const IMAGE_CODECS = new Set([
  'png',
  'mjpeg',
  'jpegls',
  'bmp',
  'gif',
  'webp',
  'tiff',
  'jpeg2000',
  'svg',
  'qoi',
  'pam',
  'ppm',
  'pgm',
  'pbm',
  'pcx',
  'sgi',
  'targa',
  'xbm',
  'xpm',
  'psd',
  'dds',
  'exr',
  'hdr',
  'pictor',
  'sunrast',
  'photocd',
  'pgx',
]);

const SAMPLE_FORMAT_BITS: Readonly<Record<string, number>> = {
  u8: 8,
  u8p: 8,
  s16: 16,
  s16p: 16,
  s32: 32,
  s32p: 32,
  s64: 64,
  s64p: 64,
  flt: 32,
  fltp: 32,
  dbl: 64,
  dblp: 64,
};

/** A number ffprobe printed ("N/A" where it has none), or the fallback. */
const finiteOr = (value: string | undefined, fallback: number): number => {
  const n = Number(value);
  return value !== undefined && Number.isFinite(n) ? n : fallback;
};

const positive = (value: string | number | undefined): number | null => {
  const n = typeof value === 'number' ? value : Number.parseFloat(value ?? '');
  return Number.isFinite(n) && n > 0 ? n : null;
};

/**
 * Bits per sample as stored: the stated depth of PCM and lossless codecs (16, 24, 32 for float).
 * Lossy codecs (mp3, aac, opus...) store no sample depth; like common audio tools, 16 is
 * reported for them (their decoders' float output is not the file's depth).
 */
function sampleWidthOf(stream: ProbeStream): number {
  const stated = positive(stream.bits_per_raw_sample) ?? positive(stream.bits_per_sample);
  if (stated !== null) return stated;
  const format = stream.sample_fmt ?? '';
  const lossyFloat =
    ['flt', 'fltp', 'dbl', 'dblp'].includes(format) &&
    !(stream.codec_name ?? '').startsWith('pcm_');
  if (lossyFloat) return 16;
  return SAMPLE_FORMAT_BITS[format] ?? 16;
}

/**
 * Reads ffprobe's JSON, or throws the error that tells the user what is wrong with the file:
 * not media at all, a picture, a video without sound, or sound in a codec that cannot be
 * decoded.
 */
export function readProbe(json: string, fileName: string): MediaProbe {
  let parsed: ProbeJson;
  try {
    parsed = JSON.parse(json) as ProbeJson;
  } catch {
    parsed = {};
  }
  const streams = parsed.streams ?? [];
  const formatName = parsed.format?.format_name ?? '';
  if (streams.length === 0) {
    throw new ServiceError(
      'undecodable_media',
      `"${fileName}" cannot be read as audio or video: no audio stream was found (the file may be damaged, truncated or in a format Murmur does not read).`,
    );
  }
  const pictures = streams.filter(
    (s) => s.codec_type === 'video' && s.disposition?.attached_pic !== 1,
  );
  const audio = streams.find((s) => s.codec_type === 'audio');
  if (audio === undefined) {
    const isImage =
      pictures.length > 0 &&
      (/image2|_pipe$|^gif$|^webp/.test(formatName) ||
        pictures.every((p) => IMAGE_CODECS.has(p.codec_name ?? '')));
    if (isImage) {
      throw new ServiceError('unsupported_media', `"${fileName}" is an image, not audio or video.`);
    }
    if (pictures.length > 0) {
      throw new ServiceError(
        'undecodable_media',
        `"${fileName}" is a video without an audio track: there is nothing to transcribe.`,
      );
    }
    throw new ServiceError('undecodable_media', `"${fileName}" holds no audio track.`);
  }
  const codec = audio.codec_name ?? '';
  if (codec === '' || codec === 'none' || codec === 'unknown') {
    const tag = audio.codec_tag_string ?? audio.codec_tag ?? 'unknown';
    throw new ServiceError(
      'undecodable_media',
      `"${fileName}" uses an audio codec that Murmur cannot decode (codec tag ${tag}). Convert it to a common format (WAV, MP3, FLAC, AAC, Opus) and try again.`,
    );
  }
  const channels = audio.channels ?? 0;
  const sampleRate = positive(audio.sample_rate);
  if (channels <= 0 || sampleRate === null) {
    throw new ServiceError(
      'undecodable_media',
      `"${fileName}" has an audio track (${codec}) whose channels or sample rate cannot be read: the file may be damaged or truncated.`,
    );
  }
  return {
    streamIndex: audio.index ?? 0,
    codec,
    channels,
    sampleRate: Math.round(sampleRate),
    sampleWidth: sampleWidthOf(audio),
    duration: positive(parsed.format?.duration) ?? positive(audio.duration),
    hasVideo: pictures.length > 0,
    formatName,
    startTime: finiteOr(audio.start_time, 0),
  };
}

/** Spec 2.7 from the probe, the decoded length and the similar-channel count. */
export function providedFileMetadata(
  probe: MediaProbe,
  duration: Seconds,
  numberSimilarChannels: number,
): ProvidedFileMetadata {
  return {
    nb_channels: probe.channels,
    sample_rate: probe.sampleRate,
    sample_width: probe.sampleWidth,
    duration: Math.round(duration * 1000) / 1000,
    original_file_type: probe.hasVideo ? 'video' : 'audio',
    number_similar_channels: numberSimilarChannels,
  };
}
