import {
  requestWithDefaults,
  type MediaFile,
  type TranscriptionRequest,
} from '../../src/core/contract/request';
import { loadWhisper, type LoadedWhisper } from '../../src/engine/asr/whisper-model';
import { prepareAudio, warmMediaStage } from '../../src/engine/media/prepare-audio';
import { runPipeline } from '../../src/engine/pipeline';
import { browserMediaPorts } from '../../src/hosts/browser/ffmpeg-media-ports';
import { configureTransformers } from '../../src/hosts/browser/transformers-setup';
import type { MediaPorts } from '../../src/engine/ports';
import type { AsrBenchReply, AsrBenchRequest, EngineStages } from './asr-protocol';

/**
 * One benchmark run in a worker: Murmur's engine (media stage, VAD, its own decoding loop) or
 * transformers.js' own ASR pipeline called the common way (30-s chunks, 5-s stride, the whole
 * decoded file), on the same model files served at /hub/.
 */
const scope = self as unknown as {
  postMessage(message: AsrBenchReply): void;
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

/** Times the recogniser's feature, encoder and decoder calls by wrapping them in place. */
function profiled(model: LoadedWhisper): Record<string, { seconds: number; calls: number }> {
  const profile: Record<string, { seconds: number; calls: number }> = {};
  for (const name of ['features', 'encode', 'step'] as const) {
    const call = model[name].bind(model) as (...args: unknown[]) => Promise<unknown>;
    const entry = (profile[name] = { seconds: 0, calls: 0 });
    (model as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      const t = performance.now();
      try {
        return await call(...args);
      } finally {
        entry.seconds += (performance.now() - t) / 1000;
        entry.calls++;
      }
    };
  }
  return profile;
}

/** Times the media stage's VAD calls (wall time: they may run beside recognition). */
function profiledVad(ports: MediaPorts, entry: { seconds: number; calls: number }): MediaPorts {
  return {
    ...ports,
    async speechDetector(options) {
      const detector = await ports.speechDetector(options);
      return {
        ...detector,
        streamWindows: detector.streamWindows,
        warmupWindows: detector.warmupWindows,
        async probabilities(samples, o) {
          const t = performance.now();
          try {
            return await detector.probabilities(samples, o);
          } finally {
            entry.seconds += (performance.now() - t) / 1000;
            entry.calls++;
          }
        },
      };
    },
  };
}

async function engine(data: AsrBenchRequest) {
  const transformers = configureTransformers('/hub/', 'wasm');
  const wasm = transformers.env.backends.onnx.wasm;
  if (wasm) wasm.numThreads = data.threads;
  const vadRuns = { seconds: 0, calls: 0 };
  const media = profiledVad(browserMediaPorts('/hub/'), vadRuns);
  const loadStarted = performance.now();
  const model = await loadWhisper(transformers, data.modelId, 'wasm', undefined, data.dtypes);
  // As in the app, ffmpeg and the VAD model are loaded before the file comes (not timed).
  await warmMediaStage(media, { vadModelId: 'murmur-test/silero-vad' });
  const modelLoadSeconds = (performance.now() - loadStarted) / 1000;
  const profile = { ...profiled(model), vad: vadRuns };
  const started = performance.now();
  let first = 0;
  const response = await runPipeline(
    request(data.file),
    {
      prepareAudio: (r, o) =>
        prepareAudio(r, media, { ...o, vadModelId: 'murmur-test/silero-vad' }),
      loadWhisper: async () => model,
      clock: () => performance.now() / 1000,
    },
    {
      forcedTokensPerSecond: data.tokensPerSecond,
      onSegment: () => {
        first ||= performance.now();
      },
    },
  );
  const seconds = (performance.now() - started) / 1000;
  return {
    seconds,
    firstSegmentSeconds: first ? (first - started) / 1000 : seconds,
    audioSeconds: response.prediction_raw.metadata.provided_file_metadata.duration,
    modelLoadSeconds,
    segments: response.prediction_raw.transcription.length,
    stages: stagesOf(response.prediction_raw.metadata),
    profile,
  };
}

async function library(data: AsrBenchRequest) {
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

scope.onmessage = async (event) => {
  const data = event.data;
  try {
    const run = data.contender === 'engine' ? await engine(data) : await library(data);
    scope.postMessage({
      ok: true,
      result: {
        contender: data.contender,
        ...run,
        crossOriginIsolated: self.crossOriginIsolated,
        threads: data.threads,
      },
    });
  } catch (thrown) {
    scope.postMessage({
      ok: false,
      error: thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown),
    });
  }
};
