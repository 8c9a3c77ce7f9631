import {
  requestWithDefaults,
  type MediaFile,
  type TranscriptionRequest,
} from '../../src/core/contract/request';
import type { Stage } from '../../src/core/stages';
import { runPipeline } from '../../src/engine/pipeline';
import { warmUp } from '../../src/engine/warm-up';
import type { EnginePorts, LoadedWhisper } from '../../src/engine/ports';
import { browserEnginePorts } from '../../src/hosts/browser/engine-ports';
import { configureTransformers } from '../../src/hosts/browser/transformers-setup';
import { toWireError } from '../../src/worker/envelope';
import { forcedDecoding } from '../../tools/testing/forced-decoding';
import { ggmlFile, runWhisperCpp, type WhisperCppContext } from '../../tools/bench/whispercpp';
import { profiledCalls } from '../../tools/bench/model-calls';
import type {
  AsrBenchProgress,
  AsrBenchReply,
  AsrBenchRequest,
  EngineStages,
} from './asr-protocol';
import { TEST_MODELS } from './test-models';

/**
 * One benchmark run in a worker: Murmur's engine (media stage, VAD, its own decoding loop) or
 * transformers.js' own ASR pipeline called the common way (30-s chunks, 5-s stride, the whole
 * decoded file), on the same model files served at /hub/.
 */
const scope = self as unknown as {
  postMessage(message: AsrBenchReply | AsrBenchProgress): void;
  onmessage: ((event: MessageEvent<AsrBenchRequest>) => void) | null;
};

function request(file: File): TranscriptionRequest<MediaFile> {
  return requestWithDefaults(
    'audio',
    { kind: 'file', file },
    {
      language_behaviour: 'manual',
      language: 'en',
    },
  );
}

function stagesOf(metadata: EngineStages): EngineStages {
  const { audio_conversion_time, vad_time, inference_time } = metadata;
  return { audio_conversion_time, vad_time, inference_time };
}

/** The first time each named thing happened, seconds from `started` (set when the run starts). */
class Marks {
  started = 0;
  readonly at: Record<string, number> = {};
  mark(name: string): void {
    this.at[name] ??= (performance.now() - this.started) / 1000;
  }
}

/** Times the speech stage's VAD calls (wall time: they may run beside recognition). */
function profiledVad(
  ports: EnginePorts,
  entry: { seconds: number; calls: number },
  marks: Marks,
): EnginePorts {
  return {
    ...ports,
    async speechDetector(options) {
      const detector = await ports.speechDetector(options);
      return {
        streamWindows: detector.streamWindows,
        warmupWindows: detector.warmupWindows,
        runsApart: detector.runsApart,
        async probabilities(samples, o) {
          const t = performance.now();
          marks.mark('first VAD');
          try {
            return await detector.probabilities(samples, o);
          } finally {
            entry.seconds += (performance.now() - t) / 1000;
            entry.calls++;
            marks.mark('first VAD done');
          }
        },
      };
    },
  };
}

async function engine(data: AsrBenchRequest['data']) {
  const vadRuns = { seconds: 0, calls: 0 };
  const marks = new Marks();
  const ports = profiledVad(
    browserEnginePorts({
      ...TEST_MODELS,
      whisperModel: data.modelId,
      threads: data.threads,
      ...(data.dtypes ? { dtypes: data.dtypes } : {}),
    }),
    vadRuns,
    marks,
  );
  const loadStarted = performance.now();
  const loaded = await ports.recogniser({});
  // As in the app, ffmpeg and the VAD model are loaded and the VAD run once before the file
  // comes (not timed, nor counted in the VAD's figures).
  await warmUp(ports);
  vadRuns.seconds = 0;
  vadRuns.calls = 0;
  for (const name of Object.keys(marks.at)) delete marks.at[name];
  const modelLoadSeconds = (performance.now() - loadStarted) / 1000;
  const model: LoadedWhisper = forcedDecoding(loaded, data.tokensPerStreamSecond);
  const calls = profiledCalls(model, (name, phase) => {
    if (phase === 'start') marks.mark(`first ${name}`);
    else if (name === 'encode' || name === 'encodeBatch') marks.mark('first encode done');
  });
  const profile = { ...calls, vad: vadRuns };
  const started = performance.now();
  marks.started = started;
  let first = 0;
  let firstProvisional = 0;
  let heard = 0;
  let stage: Stage | null = null;
  const report = () =>
    scope.postMessage({ id: 0, type: 'progress', data: { heardSeconds: heard, stage } });
  const response = await runPipeline(
    request(data.file),
    { ...ports, recogniser: async () => model },
    {
      ...(data.batch ? { settings: { recognition: { batchWindows: data.batch } } } : {}),
      onSegment: (segment) => {
        if (!first) marks.at['steps before first segment'] = calls['step']?.calls ?? 0;
        first ||= performance.now();
        heard = segment.time_end;
        if (data.reportProgress) report();
      },
      onProgress: (reporting) => {
        if (reporting === stage) return;
        stage = reporting;
        if (data.reportProgress) report();
      },
      ...(data.provisional === false
        ? {}
        : { onProvisional: () => void (firstProvisional ||= performance.now()) }),
    },
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    seconds,
    firstSegmentSeconds: first ? (first - started) / 1000 : seconds,
    ...(firstProvisional ? { firstProvisionalSeconds: (firstProvisional - started) / 1000 } : {}),
    marks: marks.at,
    audioSeconds: response.prediction_raw.metadata.provided_file_metadata.duration,
    modelLoadSeconds,
    segments: response.prediction_raw.transcription.length,
    stages: stagesOf(response.prediction_raw.metadata),
    profile,
  };
}

async function library(data: AsrBenchRequest['data']) {
  // transformers.js' own default: the build with WebGPU, whatever the device.
  const transformers = configureTransformers('/hub/', 'webgpu');
  const wasm = transformers.env.backends.onnx.wasm;
  if (wasm) wasm.numThreads = data.threads;
  // The common way: the whole file as 16 kHz mono samples, decoded beforehand (not timed).
  const audio = new Float32Array(await data.pcm.arrayBuffer());
  const loadStarted = performance.now();
  const asr = await transformers.pipeline('automatic-speech-recognition', data.modelId, {
    device: 'wasm',
    dtype: { encoder_model: 'q8', decoder_model_merged: 'q8' },
  });
  const modelLoadSeconds = (performance.now() - loadStarted) / 1000;
  const started = performance.now();
  const output = await asr(audio, {
    chunk_length_s: 30,
    stride_length_s: 5,
    language: 'en',
    task: 'transcribe',
    max_new_tokens: data.tokensPerChunk,
  });
  const seconds = (performance.now() - started) / 1000;
  void output;
  return {
    seconds,
    // The pipeline returns every chunk's text together at the end.
    firstSegmentSeconds: seconds,
    audioSeconds: audio.length / 16000,
    modelLoadSeconds,
    segments: 1,
  };
}

/** whisper.cpp's WASM build (multi-threaded, the page being cross-origin isolated). */
async function whisperCppWasm(data: AsrBenchRequest['data']) {
  // Served from this origin by the benchmark as the package ships it, outside the build.
  const where = '/whispercpp/index.js';
  const wasm = (await import(/* @vite-ignore */ where)) as {
    configureWasm(options: { threads: boolean }): void;
    initWhisper(options: {
      filePath: string;
      useGpu: boolean;
      cacheModel: boolean;
      maxModelBytes: number;
    }): Promise<WhisperCppContext>;
  };
  // Its multi-threaded build stops with emscripten's "unwind" when started inside a module
  // worker (as every contender here runs), so it runs on one thread whatever is asked.
  wasm.configureWasm({ threads: false });
  const samples = new Float32Array(await data.pcm.arrayBuffer());
  const loadStarted = performance.now();
  const context = await wasm.initWhisper({
    filePath: `/hub/${data.modelId}/resolve/main/${ggmlFile(data.tokensPerChunk)}`,
    useGpu: false,
    cacheModel: false,
    maxModelBytes: 1024 * 1024 * 1024,
  });
  const modelLoadSeconds = (performance.now() - loadStarted) / 1000;
  const { seconds, firstSegmentSeconds, ...whisperCpp } = await runWhisperCpp(context, samples, 1);
  return {
    seconds,
    firstSegmentSeconds,
    audioSeconds: samples.length / 16000,
    modelLoadSeconds,
    segments: whisperCpp.windows,
    whisperCpp,
    threads: 1,
  };
}

scope.onmessage = async (event) => {
  const { id, data } = event.data;
  try {
    const run =
      data.contender === 'engine'
        ? await engine(data)
        : data.contender === 'whispercpp-wasm'
          ? await whisperCppWasm(data)
          : await library(data);
    scope.postMessage({
      id,
      type: 'result',
      data: {
        contender: data.contender,
        crossOriginIsolated: self.crossOriginIsolated,
        threads: data.threads,
        // whisper.cpp's WASM build says its own threads
        ...run,
      },
    });
  } catch (thrown) {
    const wire = toWireError(thrown);
    if (thrown instanceof Error && thrown.stack) wire.message = thrown.stack;
    scope.postMessage({ id, type: 'error', data: wire });
  }
};
