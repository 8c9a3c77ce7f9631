import { readFileSync } from 'node:fs';
import type { FixtureDir } from '../ffmpeg-fixtures';

/**
 * A FLAC of two seconds of silence whose STREAMINFO claims `hours` hours: what ffprobe reads as
 * the duration, as from the 164 KB FLAC of ten real hours (`anullsrc -t 36000`), which takes
 * ffmpeg a minute and more to write. The limit is checked from the probe, so both are refused
 * the same way, before any decoding.
 */
export function flacClaiming(fixtures: FixtureDir, name: string, channels: number, hours: number) {
  const layout = channels === 8 ? '7.1' : channels === 2 ? 'stereo' : 'mono';
  const real = fixtures.ffmpeg(`${name}.real.flac`, [
    '-f',
    'lavfi',
    '-i',
    `anullsrc=r=8000:cl=${layout}`,
    '-t',
    '2',
    '-c:a',
    'flac',
    '-sample_fmt',
    's16',
  ]);
  const bytes = new Uint8Array(readFileSync(real));
  // STREAMINFO starts at byte 8: 10 bytes of block and frame sizes, then 64 bits holding the
  // sample rate (20), channels - 1 (3), bits per sample - 1 (5) and the total samples (36).
  const view = new DataView(bytes.buffer);
  const packed = view.getBigUint64(18);
  const total = BigInt(Math.round(hours * 3600 * 8000));
  view.setBigUint64(18, (packed & ~0xfffffffffn) | total);
  return fixtures.write(name, bytes);
}

/**
 * A WAV header (8 kHz 8-bit, mono unless `channels` says otherwise) whose data chunk declares
 * `dataBytes`, followed by `body`.
 */
export function wavHeader(dataBytes: number, body = new Uint8Array(0), channels = 1): Uint8Array {
  const header = new Uint8Array(44);
  const view = new DataView(header.buffer);
  const text = (at: number, s: string) =>
    [...s].forEach((c, i) => (header[at + i] = c.charCodeAt(0)));
  text(0, 'RIFF');
  view.setUint32(4, Math.min(0xffffffff, 36 + dataBytes), true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, 8000, true);
  view.setUint32(28, 8000 * channels, true);
  view.setUint16(32, channels, true);
  view.setUint16(34, 8, true);
  text(36, 'data');
  view.setUint32(40, dataBytes, true);
  const out = new Uint8Array(44 + body.length);
  out.set(header);
  out.set(body, 44);
  return out;
}

/**
 * A stereo mp3 whose first packets state a length far short of what it holds: 2 s at 160 kbps,
 * then `minutes` minutes at 8 kbps, with no Xing header. ffprobe estimates the length from the
 * first packet's bit rate, a twentieth of the real one (4 minutes read as 14 s).
 */
export function mp3UnderstatingLength(fixtures: FixtureDir, name: string, minutes: number) {
  const part = (file: string, seconds: number, rate: string, tone: number) =>
    readFileSync(
      fixtures.ffmpeg(file, [
        '-f',
        'lavfi',
        '-i',
        `sine=frequency=${tone}:sample_rate=16000:duration=${seconds}`,
        '-ac',
        '2',
        '-c:a',
        'libmp3lame',
        '-b:a',
        rate,
        '-write_xing',
        '0',
        '-id3v2_version',
        '0',
      ]),
    );
  const loud = part(`${name}.head.mp3`, 2, '160k', 440);
  const minute = part(`${name}.minute.mp3`, 60, '8k', 300);
  return fixtures.write(name, Buffer.concat([loud, ...Array<Buffer>(minutes).fill(minute)]));
}
