/**
 * Decoding speed and peak memory of the media stage in Node for a generated 1-hour stereo
 * recording: ffmpeg.wasm's core decoding window by window, Silero VAD on both channels,
 * channel comparison and billing. Prints one JSON line (read by `media.ts`).
 * usage: tsx tools/bench/media-node.ts [--seconds 3600] [--in-memory] [--mono]
 */
import { prepareAudio } from '../../src/engine/pipeline';
import { mediaRequest, testEnginePorts } from '../testing/ffmpeg-fixtures';
import { diskFile } from '../../src/hosts/node';
import { longMonoMp3, longStereoMp3, peakRssMb } from './bench-media';
import { writeBenchResult } from './bench-result';

const arg = process.argv.indexOf('--seconds');
const seconds = arg > 0 ? Number(process.argv[arg + 1]) : 3600;
// The decoded channels in memory rather than in a scratch file (as before).
const inMemory = process.argv.includes('--in-memory');
// One talker on one channel (for 10 hours) rather than the stereo recording.
const mono = process.argv.includes('--mono');
const path = mono ? longMonoMp3(seconds) : longStereoMp3(seconds);
const file = await diskFile(path);
if (file === null) throw new Error(`missing ${path}`);

const ports = testEnginePorts();
const started = performance.now();
const audio = await prepareAudio(mediaRequest({ kind: 'file', file }), ports, {
  onProgress: (_stage, fraction, detail) => {
    if (fraction !== null && process.stderr.isTTY) process.stderr.write(`\r${detail}          `);
  },
  spill: !inMemory,
});
audio.release();
const wall = (performance.now() - started) / 1000;
const duration = audio.file.duration;
const line = {
  host: 'node',
  kept: inMemory ? 'memory' : 'scratch file',
  file: `${file.name} (${(file.size / 1e6).toFixed(1)} MB)`,
  duration_s: duration,
  audio_conversion_time_s: +audio.timings.audio_conversion_time.toFixed(2),
  decode_x_realtime: +(duration / audio.timings.audio_conversion_time).toFixed(1),
  vad_time_s: +audio.timings.vad_time.toFixed(2),
  vad_x_realtime_per_channel: +(
    (duration * audio.file.nb_channels) /
    audio.timings.vad_time
  ).toFixed(1),
  total_s: +wall.toFixed(2),
  total_x_realtime: +(duration / wall).toFixed(1),
  peak_rss_mb: Math.round(peakRssMb()),
  channels: audio.channels.length,
  billing: audio.billing.map((b) => `${b.channel}:${b.reason}:${b.billable_seconds}`).join(' '),
};
console.log(JSON.stringify(line));
writeBenchResult(import.meta.filename, {
  name: `media-node-${mono ? 'mono-' : ''}${seconds}s${inMemory ? '-in-memory' : ''}`,
  settings: { recording_s: Math.round(duration), runs: 1 },
  figures: {
    'node.total_x_realtime': line.total_x_realtime,
    'node.decode_x_realtime': line.decode_x_realtime,
    'node.peak_mb': line.peak_rss_mb,
  },
  ratios: {},
  units: {
    'node.total_x_realtime': 'x real time',
    'node.decode_x_realtime': 'x real time',
    'node.peak_mb': 'MB (VmHWM)',
  },
});
