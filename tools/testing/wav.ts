/** WAV files of 16 kHz float samples, for generated test media. */
import { writeFileSync } from 'node:fs';

export type WavSampleFormat = 'pcm16' | 'float32';

/**
 * Writes channels of 16 kHz samples as one WAV file: 16-bit PCM (clipped to [-1, 1]) or
 * 32-bit float (as given, for tests that must not lose the quiet parts to rounding).
 */
export function writeWav(
  path: string,
  channels: readonly Float32Array[],
  format: WavSampleFormat = 'pcm16',
  rate = 16000,
): string {
  const frames = Math.max(0, ...channels.map((c) => c.length));
  const n = channels.length;
  const width = format === 'pcm16' ? 2 : 4;
  const data = Buffer.alloc(frames * n * width);
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < n; c++) {
      const s = channels[c]![i] ?? 0;
      const at = (i * n + c) * width;
      if (format === 'pcm16')
        data.writeInt16LE(Math.round(Math.max(-1, Math.min(1, s)) * 32767), at);
      else data.writeFloatLE(s, at);
    }
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(format === 'pcm16' ? 1 : 3, 20);
  header.writeUInt16LE(n, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * n * width, 28);
  header.writeUInt16LE(n * width, 32);
  header.writeUInt16LE(width * 8, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  writeFileSync(path, Buffer.concat([header, data]));
  return path;
}
