import { toServiceError } from '../../core/contract/errors';
import { DEFAULT_WHISPER, HUB } from '../../core/model-catalog';
import { loadWhisper, type LoadedWhisper } from '../../engine/asr/whisper-model';
import { prepareAudio } from '../../engine/media/prepare-audio';
import type { MediaPorts, ProgressListener } from '../../engine/ports';
import { browserMediaPorts } from './ffmpeg-media-ports';
import { fieldsFromRecord, parseRequestOrThrow } from '../../core/contract/parse-request';
import { runPipeline, type PipelinePorts } from '../../engine/pipeline';
import { configureTransformers, pickDevice } from './transformers-setup';
import type { EngineSettings, FromWorker, ToWorker } from '../../worker/protocol';

/** The worker global, typed by its messages (the DOM and WebWorker libs cannot share a program). */
interface WorkerScope {
  postMessage(message: FromWorker): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<ToWorker>) => void): void;
}

const scope = self as unknown as WorkerScope;

function post(message: FromWorker): void {
  scope.postMessage(message);
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
    const response = await runPipeline(request, ports(), {
      onProgress: (stage, fraction, detail) =>
        post({ id, type: 'progress', data: { stage, fraction, detail } }),
      onSegment: (segment) => post({ id, type: 'segment', data: segment }),
    });
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

let settings: EngineSettings = { modelHost: HUB, whisperModel: DEFAULT_WHISPER };
const loaded = new Map<string, Promise<LoadedWhisper>>();

/** One recogniser per (host, model), loaded on first use and kept for later requests. */
function whisper(onProgress: ProgressListener): Promise<LoadedWhisper> {
  const key = `${settings.modelHost}|${settings.whisperModel}`;
  let model = loaded.get(key);
  if (!model) {
    const { modelHost, whisperModel } = settings;
    model = pickDevice().then((device) =>
      loadWhisper(configureTransformers(modelHost), whisperModel, device, onProgress),
    );
    model.catch(() => loaded.delete(key));
    loaded.set(key, model);
  }
  return model;
}

const mediaPorts = new Map<string, MediaPorts>();

/** ffmpeg.wasm and the VAD stay loaded across requests (per model host). */
function media(): MediaPorts {
  let ports = mediaPorts.get(settings.modelHost);
  if (!ports) {
    ports = browserMediaPorts(settings.modelHost);
    mediaPorts.set(settings.modelHost, ports);
  }
  return ports;
}

function ports(): PipelinePorts<File> {
  const mediaStage = media();
  return {
    prepareAudio: (request, options) => prepareAudio(request, mediaStage, options),
    loadWhisper: ({ onProgress }) => whisper(onProgress ?? (() => {})),
    clock: () => performance.now() / 1000,
  };
}

scope.addEventListener('message', (event) => {
  const message = event.data;
  switch (message.type) {
    case 'configure':
      settings = message.data;
      break;
    case 'transcribe':
      void transcribe(message);
      break;
    default:
      throw new Error(`Unknown message to the worker: ${JSON.stringify(message satisfies never)}`);
  }
});
