import { newRequestId, toServiceError } from '../../core/contract/errors';
import type { MediaFile } from '../../core/contract/request';
import { DEFAULT_WHISPER, HUB } from '../../core/model-catalog';
import type { Device } from '../../engine/models/model-settings';
import { runJob, type JobHost } from '../../engine/job/job';
import { warmUp } from '../../engine/warm-up';
import type { EnginePorts } from '../../engine/ports';
import { toWireError } from '../../worker/envelope';
import type {
  CrashKind,
  CrashOrder,
  EngineSettings,
  FromWorker,
  ToWorker,
} from '../../worker/protocol';
import { isRuntimeFault } from '../../worker/runtime-fault';
import { browserEnginePorts } from './engine-ports';
import { liveStopped, receiveLive } from './live-handler';
import { takeNetwork } from './network-ledger';
import { crashSpeechWorkerForTest } from './speech-detector';
import { runtimesFor, type RuntimeName } from '../../worker/runtimes';
import { prepareRuntime } from './runtime-files';
import { loadSentimentReading, loadStopWords } from '../../engine/stages/understanding';
import { fetchAllWordLists } from './word-lists';
import { pickDevice, usableDevice } from './transformers-setup';

/**
 * The transcription worker's code, loaded by its entry (`transcription.worker.ts`) once the
 * worker holds its life lock.
 */

/** The worker global, typed by its messages (the DOM and WebWorker libs cannot share a program). */
interface WorkerScope {
  postMessage(message: FromWorker, transfer?: Transferable[]): void;
  close(): void;
}

const scope = self as unknown as WorkerScope;
/** Test builds: a death ordered for when a request reaches a stage. */
let crashAtStage: CrashOrder | null = null;
/**
 * Test builds: the speech worker's death ordered for a stage. It is ordered of the speech
 * worker when the request reaches that stage, not before: the warm-up scores too.
 */
let speechCrashAtStage: CrashOrder | null = null;
/**
 * Test builds: set once a death is ordered. A worker that closes still finishes the task it is
 * in (promise callbacks included), which could post a result after it said nothing of dying: a
 * worker the browser ends says nothing more, so neither does this one.
 */
let dying = false;

/**
 * Whether a message shows the request at `stage`: its progress, or for recognition a segment
 * too (recognition reports progress once a window is done, and a short file may post its
 * segments first).
 */
function reaches(message: FromWorker, stage: CrashOrder['at']): boolean {
  if (message.type === 'progress') return message.data.stage === stage;
  return message.type === 'segment' && stage === 'recognise';
}

function post(message: FromWorker, transfer: Transferable[] = []): void {
  if (dying) return;
  if (speechCrashAtStage && reaches(message, speechCrashAtStage.at)) {
    speechCrashAtStage = null;
    crashSpeechWorkerForTest('score');
  }
  if (crashAtStage && reaches(message, crashAtStage.at)) {
    const { kind } = crashAtStage;
    crashAtStage = null;
    die(kind);
    return;
  }
  scope.postMessage(message, transfer);
}

let settings: EngineSettings = { modelHost: HUB, whisperModel: DEFAULT_WHISPER, useGpu: true };
/** Set when the GPU failed during this worker's life: everything runs on WASM from then on. */
let gpuFailed = false;

async function device(): Promise<Device> {
  return gpuFailed || !settings.useGpu ? 'wasm' : usableDevice(await pickDevice());
}

/** The engine with the current settings (what loads is kept across settings). */
function ports(): EnginePorts {
  return browserEnginePorts({
    modelHost: settings.modelHost,
    whisperModel: settings.whisperModel,
    ...(settings.translationModel ? { translationModel: settings.translationModel } : {}),
    ...(settings.segmentationModel ? { segmentationModel: settings.segmentationModel } : {}),
    ...(settings.embeddingModel ? { embeddingModel: settings.embeddingModel } : {}),
    device,
    prepareRuntime: prepared,
  });
}

/** A runtime made ready, its progress told to the page whichever call needed it first. */
function prepared(runtime: RuntimeName): Promise<void> {
  return prepareRuntime(runtime, (progress) => post({ id: 0, type: 'runtime', data: progress }));
}

/** Every runtime this device uses, fetched ahead (Make available offline). */
async function prepareRuntimes(id: number): Promise<void> {
  try {
    const runtimes = runtimesFor((await device()) === 'webgpu');
    for (const runtime of runtimes) await prepared(runtime);
    // Chapters and summaries need the stop words, sentiment its code and word lists: the
    // service worker keeps them once fetched.
    await loadStopWords();
    await loadSentimentReading();
    await fetchAllWordLists();
    post({ id, type: 'prepared', data: runtimes });
  } catch (thrown) {
    post({ id, type: 'error', data: toWireError(toServiceError(thrown)) });
  }
}

/** A failure of the GPU itself (device lost, out of GPU memory), not of the request. */
function isGpuFailure(thrown: unknown): boolean {
  const text = thrown instanceof Error ? `${thrown.name} ${thrown.message}` : String(thrown);
  return /device (was )?lost|GPUDevice|webgpu|gpu-buffer|out of (gpu )?memory/i.test(text);
}

/** What this worker gives each job: its engine (telling the page the device), and the GPU's retry. */
function jobHost(id: number): JobHost<File & MediaFile> {
  return {
    engine: async () => {
      const engine = ports();
      return {
        ...engine,
        recogniser: async (options) => {
          const model = await engine.recogniser(options);
          post({ id, type: 'device', data: model.device });
          return model;
        },
      };
    },
    retry: async (thrown) => {
      if (!isGpuFailure(thrown) || (await device()) !== 'webgpu') return null;
      // The GPU went away mid-way: the same work again on WASM, once.
      gpuFailed = true;
      return 'The GPU stopped responding; the work continued on the CPU.';
    },
    // No webhook from here: the page delivers it, since it outlives this worker (replaced on a
    // cancel or a crash) and shows each try.
  };
}

async function transcribe(message: Extract<ToWorker, { type: 'transcribe' }>): Promise<void> {
  const { id, data } = message;
  // The recogniser is not shared with a live transcription still stopping.
  await liveStopped();
  const fields = {
    endpoint: data.endpoint,
    strings: data.strings,
    files: data.files,
    ...(data.script === undefined ? {} : { script: data.script }),
  };
  const outcome = await runJob(
    fields,
    jobHost(id),
    { requestId: newRequestId() },
    {
      onProgress: (stage, fraction, detail) =>
        post({ id, type: 'progress', data: { stage, fraction, detail } }),
      onNotice: (notice) => post({ id, type: 'notice', data: notice }),
      onSegment: (segment) => post({ id, type: 'segment', data: segment }),
      onProvisional: (segments) => post({ id, type: 'provisional', data: segments }),
      onSpeakers: ({ speakers }) => {
        // Copies of their own, so that each buffer can be transferred whatever it was cut from.
        const data = speakers.map((s) => ({ ...s, embedding: s.embedding.slice() }));
        post(
          { id, type: 'speakers', data },
          data.map((s) => s.embedding.buffer),
        );
      },
    },
  );
  if (outcome.ok) {
    post({ id, type: 'network', data: takeNetwork() });
    post({ id, type: 'result', data: outcome.response });
  }
  // After a trap or with memory exhausted the runtime is broken: the page replaces the worker.
  else if (isRuntimeFault(outcome.cause))
    post({ id, type: 'crashed', data: toWireError(outcome.cause) });
  else post({ id, type: 'error', data: toWireError(outcome.error) });
}

/**
 * Test builds: this worker, or its speech worker, dies as a worker dies in use, so that the
 * page's recovery can be tested.
 */
function crash(order: CrashOrder): void {
  if (order.worker === 'speech') {
    // Ordered for a stage, the speech worker dies when it is next asked to score once the
    // request reaches that stage (the speech stage is the one that calls on it).
    if (order.at === 'start' || order.at === 'now') crashSpeechWorkerForTest(order.at);
    else speechCrashAtStage = order;
    return;
  }
  if (order.at !== 'now') {
    crashAtStage = order;
    return;
  }
  die(order.kind);
}

function die(kind: CrashKind): void {
  dying = true;
  if (kind === 'exit') {
    scope.close();
    return;
  }
  // A real trap, thrown where nothing catches it, as a runtime's fault in a callback surfaces:
  // a module of one function whose body is `unreachable`.
  const module = new Uint8Array([
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x03, 0x02,
    0x01, 0x00, 0x07, 0x05, 0x01, 0x01, 0x66, 0x00, 0x00, 0x0a, 0x05, 0x01, 0x03, 0x00, 0x00, 0x0b,
  ]);
  setTimeout(() => {
    const trap = new WebAssembly.Instance(new WebAssembly.Module(module)).exports.f;
    (trap as () => void)();
  });
}

/** Downloads one model ahead of use (the loaders keep it in Cache Storage and in memory). */
async function download(message: Extract<ToWorker, { type: 'download' }>): Promise<void> {
  const { id, data: role } = message;
  const onProgress = (fraction: number | null, detail: string) =>
    post({ id, type: 'progress', data: { stage: 'models', fraction, detail } });
  try {
    const engine = ports();
    if (role === 'vad') await engine.speechDetector({});
    else if (role === 'recognition') await engine.recogniser({ onProgress });
    // The two speaker models load as a pair: asking for either downloads both.
    else if (role === 'segmentation' || role === 'embedding')
      await engine.speakers?.load({ onProgress });
    else if (engine.translator) await engine.translator.load({ onProgress });
    post({ id, type: 'downloaded', data: role });
  } catch (thrown) {
    post({ id, type: 'error', data: toWireError(toServiceError(thrown)) });
  }
}

/** Every message from the page (the entry hands them over in order). */
export function receive(event: MessageEvent<ToWorker>): void {
  const message = event.data;
  switch (message.type) {
    case 'configure':
      settings = message.data;
      // ffmpeg and the small VAD model load while the user sets the options (the page starts
      // the worker when a file is chosen); a failure here is reported by the request itself.
      void warmUp(ports()).catch(() => undefined);
      break;
    case 'transcribe':
      void transcribe(message);
      break;
    case 'crash':
      if (import.meta.env.MURMUR_TEST_HOOKS) crash(message.data);
      break;
    case 'download':
      void download(message);
      break;
    case 'prepare-runtimes':
      void prepareRuntimes(message.id);
      break;
    case 'listen':
    case 'listen-audio':
    case 'listen-end':
    case 'listen-cancel':
      receiveLive(message, post, ports);
      break;
    default:
      throw new Error(`Unknown message to the worker: ${JSON.stringify(message satisfies never)}`);
  }
}
