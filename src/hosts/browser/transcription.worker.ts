import { toServiceError } from '../../core/contract/errors';
import { fieldsFromRecord, parseRequestOrThrow } from '../../core/contract/parse-request';
import type { MediaFile, TranscriptionRequest } from '../../core/contract/request';
import { DEFAULT_WHISPER, HUB } from '../../core/model-catalog';
import type { Device } from '../../engine/asr/model-settings';
import { loadWhisper, type LoadedWhisper } from '../../engine/asr/whisper-model';
import { prepareAudio, warmMediaStage } from '../../engine/media/prepare-audio';
import { runPipeline, type PipelinePorts } from '../../engine/pipeline';
import type { MediaPorts, ProgressListener } from '../../engine/ports';
import type { EngineSettings, FromWorker, ToWorker } from '../../worker/protocol';
import { browserMediaPorts } from './ffmpeg-media-ports';
import { configureTransformers, pickDevice, usableDevice } from './transformers-setup';

/** The worker global, typed by its messages (the DOM and WebWorker libs cannot share a program). */
interface WorkerScope {
  postMessage(message: FromWorker): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<ToWorker>) => void): void;
}

const scope = self as unknown as WorkerScope;
const post = (message: FromWorker) => scope.postMessage(message);

let settings: EngineSettings = { modelHost: HUB, whisperModel: DEFAULT_WHISPER, useGpu: true };
/** Set when the GPU failed during this worker's life: everything runs on WASM from then on. */
let gpuFailed = false;
const loaded = new Map<string, Promise<LoadedWhisper>>();
const mediaPorts = new Map<string, MediaPorts>();

async function device(): Promise<Device> {
  return gpuFailed || !settings.useGpu ? 'wasm' : usableDevice(await pickDevice());
}

/** One recogniser per (host, model, device), loaded on first use and kept for later requests. */
async function whisper(onProgress: ProgressListener): Promise<LoadedWhisper> {
  const { modelHost, whisperModel } = settings;
  const on = await device();
  const key = `${modelHost}|${whisperModel}|${on}`;
  let model = loaded.get(key);
  if (!model) {
    model = loadWhisper(configureTransformers(modelHost, on), whisperModel, on, onProgress);
    model.catch(() => loaded.delete(key));
    loaded.set(key, model);
  }
  return model;
}

/** ffmpeg.wasm and the VAD stay loaded across requests (per model host). */
function media(): MediaPorts {
  let ports = mediaPorts.get(settings.modelHost);
  if (!ports) {
    ports = browserMediaPorts(settings.modelHost);
    mediaPorts.set(settings.modelHost, ports);
  }
  return ports;
}

function ports(id: number): PipelinePorts<File> {
  const mediaStage = media();
  return {
    prepareAudio: (request, options) => prepareAudio(request, mediaStage, options),
    loadWhisper: async ({ onProgress }) => {
      const model = await whisper(onProgress ?? (() => {}));
      post({ id, type: 'device', data: model.device });
      return model;
    },
    clock: () => performance.now() / 1000,
  };
}

/** A failure of the GPU itself (device lost, out of GPU memory), not of the request. */
function isGpuFailure(thrown: unknown): boolean {
  const text = thrown instanceof Error ? `${thrown.name} ${thrown.message}` : String(thrown);
  return /device (was )?lost|GPUDevice|webgpu|gpu-buffer|out of (gpu )?memory/i.test(text);
}

async function run(id: number, request: TranscriptionRequest<File & MediaFile>) {
  return runPipeline(request, ports(id), {
    onProgress: (stage, fraction, detail) =>
      post({ id, type: 'progress', data: { stage, fraction, detail } }),
    onSegment: (segment) => post({ id, type: 'segment', data: segment }),
  });
}

async function transcribe(message: Extract<ToWorker, { type: 'transcribe' }>): Promise<void> {
  const { id, data } = message;
  try {
    post({
      id,
      type: 'progress',
      data: { stage: 'validate', fraction: null, detail: 'Checking the request' },
    });
    const request = parseRequestOrThrow(fieldsFromRecord(data.strings, data.files), data.endpoint);
    for (const notice of request.notices) post({ id, type: 'notice', data: notice });
    let response;
    try {
      response = await run(id, request);
    } catch (thrown) {
      if (!isGpuFailure(thrown) || (await device()) !== 'webgpu') throw thrown;
      // The GPU went away mid-way: the same work again on WASM, once.
      gpuFailed = true;
      post({
        id,
        type: 'notice',
        data: 'The GPU stopped responding; the work continued on the CPU.',
      });
      response = await run(id, request);
    }
    post({ id, type: 'result', data: response });
  } catch (thrown) {
    const error = toServiceError(thrown);
    post({
      id,
      type: 'error',
      data: { code: error.code, message: error.message, problems: [...error.problems] },
    });
  }
}

scope.addEventListener('message', (event) => {
  const message = event.data;
  switch (message.type) {
    case 'configure':
      settings = message.data;
      // ffmpeg and the small VAD model load while the user sets the options (the page starts
      // the worker when a file is chosen); a failure here is reported by the request itself.
      void warmMediaStage(media()).catch(() => undefined);
      break;
    case 'transcribe':
      void transcribe(message);
      break;
    default:
      throw new Error(`Unknown message to the worker: ${JSON.stringify(message satisfies never)}`);
  }
});
