/**
 * Memory over a whole long transcription in Node, as the command line runs it: the engine's
 * Node ports (ffmpeg.wasm's core, onnxruntime-node, the decoded audio 16-bit in a scratch
 * file), on a generated mono mp3 (10 hours by default) or, with `--stereo`, the two-talker
 * stereo one. Recognition uses the small test Whisper with forced decoding, as
 * `transcribe-long-browser.ts` does. The process's resident size is sampled every 200 ms and
 * filed under the hour of audio recognition had reached; the peak of each hour is printed as a
 * JSON line, with VmHWM (the process's peak, whatever the sampling missed). Channels are
 * recognised one after the other: with `--stereo`, the second channel's samples are all filed
 * under the last hour, and VmHWM is the figure to read.
 * usage: tsx tools/bench/transcribe-long-node.ts [--seconds 36000] [--stereo]
 *   [--model murmur-test/whisper-synth] [--tokens 3.5 (per second of windows)]
 */
import { resolve } from 'node:path';
import { requestWithDefaults } from '../../src/core/contract/request';
import { runPipeline } from '../../src/engine/pipeline';
import { warmUp } from '../../src/engine/warm-up';
import { testEnginePorts } from '../testing/ffmpeg-fixtures';
import { diskFile, type DiskFile } from '../../src/hosts/node';
import { forcedDecoding } from '../testing/forced-decoding';
import {
  PEAK_SLICE_SECONDS,
  REPO,
  hourlyPeaks,
  longRunOptions,
  peakRssMb,
  rssMb,
} from './bench-media';
import { writeBenchResult } from './bench-result';

const { seconds, stereo, modelId, tokens, media: path } = longRunOptions();
const HOUR = 3600;
const file = (await diskFile(path)) as DiskFile;

const ports = testEnginePorts({ models: resolve(REPO, '.models'), model: modelId });
const model = forcedDecoding(await ports.recogniser({}), tokens);
await warmUp(ports);

let heard = 0;
const peakBySlice: number[] = [];
const sampler = setInterval(() => {
  const slice = Math.floor(heard / PEAK_SLICE_SECONDS);
  peakBySlice[slice] = Math.max(peakBySlice[slice] ?? 0, rssMb(process.pid));
}, 200);
const started = performance.now();
let lastHour = -1;
const response = await runPipeline(
  requestWithDefaults<DiskFile>(
    'audio',
    { kind: 'file', file },
    { language_behaviour: 'manual', language: 'en' },
  ),
  { ...ports, recogniser: async () => model },
  {
    onSegment: (segment) => {
      heard = Math.max(heard, segment.time_end);
      const hour = Math.floor(heard / HOUR);
      if (hour === lastHour) return;
      lastHour = hour;
      console.error(
        `${Math.round((performance.now() - started) / 1000)} s: hour ${hour + 1} ` +
          `(peak of each ten minutes so far: ${peakBySlice.map((mb) => Math.round(mb ?? 0)).join(', ')} MB)`,
      );
    },
  },
);
const total = (performance.now() - started) / 1000;
clearInterval(sampler);
const metadata = response.prediction_raw.metadata;
const duration = metadata.provided_file_metadata.duration;
const hours = hourlyPeaks(peakBySlice, duration);
const first = hours[0] ?? 0;
const later = Math.max(0, ...hours.slice(1));
const hwm = Math.round(peakRssMb('self'));
console.log(
  JSON.stringify({
    host: 'node',
    file: path.split('/').pop(),
    model: modelId,
    duration_s: duration,
    total_s: +total.toFixed(1),
    total_x_realtime: +(duration / total).toFixed(1),
    segments: response.prediction_raw.transcription.length,
    stages: {
      audio_conversion_time: metadata.audio_conversion_time,
      vad_time: metadata.vad_time,
      inference_time: metadata.inference_time,
    },
    peak_rss_mb_by_hour: hours,
    vm_hwm_mb: hwm,
    first_hour_peak_mb: first,
    later_hours_peak_mb: later,
  }),
);
writeBenchResult(import.meta.filename, {
  name: `transcribe-node-${stereo ? 'stereo' : 'mono'}-${seconds}s`,
  settings: { recording_s: Math.round(duration), runs: 1, model: modelId, tokens },
  figures: {
    'node.first_hour_peak_mb': first,
    'node.later_hours_peak_mb': later,
    'node.vm_hwm_mb': hwm,
    'node.total_x_realtime': +(duration / total).toFixed(1),
  },
  ratios: { 'node.later_over_first_hour_peak': +(later / Math.max(1, first)).toFixed(3) },
  units: {
    'node.first_hour_peak_mb': 'MB (RSS)',
    'node.later_hours_peak_mb': 'MB (RSS)',
    'node.vm_hwm_mb': 'MB (VmHWM)',
    'node.total_x_realtime': 'x real time',
  },
});
