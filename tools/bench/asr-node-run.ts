/**
 * One recognition benchmark run in Node, in a process of its own so that its peak memory
 * (VmHWM) is its alone. Prints one JSON line.
 * usage: tsx tools/bench/asr-node-run.ts engine|pipeline|whispercpp-native <model id> <tokens/s of speech> <tokens per chunk>
 *   [<recording seconds> (120)] [provisional|no-provisional (the engine's provisional text listened to)]
 *   [<windows decoded together> (the engine's `batchWindows`; 0: the device's own)]
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { requestWithDefaults } from '../../src/core/contract/request';
import { runPipeline } from '../../src/engine/pipeline';
import { warmUp } from '../../src/engine/warm-up';
import { testEnginePorts } from '../testing/ffmpeg-fixtures';
import { configureModelSource, diskFile, type DiskFile } from '../../src/hosts/node';
import { benchAudio, tokensPerStreamSecond } from './asr-audio';
import { REPO, peakRssMb } from './bench-media';
import { forcedDecoding } from '../testing/forced-decoding';
import { ggmlFile, runWhisperCpp, type WhisperCppContext } from './whispercpp';
import { profiledCalls } from './model-calls';

const [
  contender,
  modelId = 'murmur-bench/whisper-tiny',
  tps = '3.5',
  perChunk = '60',
  recordingSeconds = '120',
  provisional = 'provisional',
  batch = '0',
] = process.argv.slice(2);
const models = resolve(REPO, '.models');
// The same recording as the Chromium runs of `asr.ts` (its `--seconds`).
const audio = benchAudio(Number(recordingSeconds));

async function engine() {
  const file = (await diskFile(audio.wav)) as DiskFile;
  const request = requestWithDefaults<DiskFile>(
    'audio',
    { kind: 'file', file },
    {
      language_behaviour: 'manual',
      language: 'en',
    },
  );
  const ports = testEnginePorts({ models, model: modelId });
  const loadStarted = performance.now();
  const model = forcedDecoding(
    await ports.recogniser({}),
    tokensPerStreamSecond(audio, Number(tps)),
  );
  // As in the app, ffmpeg and the VAD model are loaded and the VAD run once before the file
  // comes (not timed).
  await warmUp(ports);
  const modelLoadSeconds = (performance.now() - loadStarted) / 1000;
  const profile = profiledCalls(model);
  const started = performance.now();
  let first = 0;
  let firstProvisional = 0;
  const response = await runPipeline(
    request,
    { ...ports, recogniser: async () => model },
    {
      // 0: the device's own, as the command line runs it.
      ...(Number(batch) > 0 ? { settings: { recognition: { batchWindows: Number(batch) } } } : {}),
      onSegment: () => void (first ||= performance.now()),
      ...(provisional === 'provisional'
        ? { onProvisional: () => void (firstProvisional ||= performance.now()) }
        : {}),
    },
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    seconds,
    batch: Number(batch),
    words: response.prediction_raw.transcription.reduce((n, s) => n + s.words.length, 0),
    firstSegmentSeconds: first ? (first - started) / 1000 : seconds,
    ...(firstProvisional ? { firstProvisionalSeconds: (firstProvisional - started) / 1000 } : {}),
    modelLoadSeconds,
    profile,
    stages: {
      audio_conversion_time: response.prediction_raw.metadata.audio_conversion_time,
      vad_time: response.prediction_raw.metadata.vad_time,
      inference_time: response.prediction_raw.metadata.inference_time,
    },
  };
}

async function library() {
  const transformers = configureModelSource(models);
  const input = samples();
  const loadStarted = performance.now();
  const asr = await transformers.pipeline('automatic-speech-recognition', modelId, {
    device: 'cpu',
    dtype: 'fp32',
  });
  const modelLoadSeconds = (performance.now() - loadStarted) / 1000;
  const started = performance.now();
  await asr(input, {
    chunk_length_s: 30,
    stride_length_s: 5,
    language: 'en',
    task: 'transcribe',
    max_new_tokens: Number(perChunk),
  });
  const seconds = (performance.now() - started) / 1000;
  return { seconds, firstSegmentSeconds: seconds, modelLoadSeconds };
}

function samples(): Float32Array {
  const bytes = readFileSync(audio.pcm);
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

/** Native whisper.cpp on the converted model, one 30-s window at a time (see whispercpp.ts). */
async function whisperCppNative() {
  const binding = createRequire(import.meta.url)('@fugood/node-whisper-linux-x64/index.node') as {
    WhisperContext: new (options: { filePath: string; useGpu: boolean }) => WhisperCppContext;
  };
  const loadStarted = performance.now();
  const context = new binding.WhisperContext({
    filePath: join(models, modelId, ggmlFile(Number(perChunk))),
    useGpu: false,
  });
  const modelLoadSeconds = (performance.now() - loadStarted) / 1000;
  const input = samples();
  const run = await runWhisperCpp(context, input, 2);
  return { ...run, modelLoadSeconds };
}

const run =
  contender === 'engine'
    ? await engine()
    : contender === 'whispercpp-native'
      ? await whisperCppNative()
      : await library();
console.log(
  JSON.stringify({
    host: 'node',
    contender,
    audioSeconds: audio.seconds,
    ...run,
    peakRssMb: peakRssMb('self'),
  }),
);
