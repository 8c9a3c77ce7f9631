import {
  DEFAULT_EMBEDDING_MODEL,
  DEFAULT_SEGMENTATION_MODEL,
  DEFAULT_TRANSLATION_MODEL,
  SILERO_VAD,
} from '../../core/model-catalog';
import { ModelCache } from '../../engine/models/model-cache';
import type { Device, DeviceSettings } from '../../engine/models/model-settings';
import { loadEmotionModel } from '../../engine/models/emotion-model';
import { loadSpeakerModels } from '../../engine/models/speaker-models';
import { loadTranslator } from '../../engine/models/translation-model';
import { loadWhisper } from '../../engine/models/whisper-model';
import type {
  EnginePorts,
  FfmpegPort,
  LoadedEmotionModel,
  LoadedSpeakerModels,
  LoadedTranslator,
  LoadedWhisper,
  SpeechDetectorLoader,
} from '../../engine/ports';
import { browserFfmpeg } from './ffmpeg-wasm';
import { browserSpillFiles } from './spill-file';
import { workerSpeechDetectors } from './speech-detector';
import { configureTransformers, runtimeFor } from './transformers-setup';
import type { RuntimeName } from '../../worker/runtimes';
import { browserWordLists } from './word-lists';

export interface BrowserEngineSettings {
  /** The hub, or a self-hosted mirror in the hub's layout (`/hub/` in tests). */
  modelHost: string;
  whisperModel: string;
  /** The translation model's id (default: M2M100 418M). */
  translationModel?: string;
  /** The speaker models' ids (default: pyannote segmentation 3.0, WeSpeaker ResNet34). */
  segmentationModel?: string;
  embeddingModel?: string;
  /** The device the recogniser loads on, asked at each request (the GPU may fail mid-way). */
  device: () => Promise<Device>;
  /** The voice activity model's id (default: the production Silero VAD). */
  vadModel?: string;
  /** Precisions other than the device's defaults (benchmarks compare them). */
  dtypes?: Partial<DeviceSettings>;
  /** onnxruntime-web's threads for Whisper (default: as many as the machine has, up to 4). */
  threads?: number;
  /**
   * False: long decoded audio stays in memory rather than in the origin-private file system
   * (benchmarks compare the two).
   */
  spill?: boolean;
  /**
   * Makes a runtime's files ready before it loads (the app fetches them when first needed, with
   * progress, and keeps them for offline use). Absent: each runtime loads its files itself.
   */
  prepareRuntime?: (runtime: RuntimeName) => Promise<void>;
}

/** One ffmpeg per worker, loaded on first use and kept. */
let ffmpeg: FfmpegPort | null = null;
/** Scratch files for long audio; the first one opened clears what closed tabs left. */
const spill = browserSpillFiles();
const detectors = new Map<string, SpeechDetectorLoader>();
const recognisers = new ModelCache<LoadedWhisper>();
const translators = new ModelCache<LoadedTranslator>();
const speakerModels = new ModelCache<LoadedSpeakerModels>();
const emotionModels = new ModelCache<LoadedEmotionModel>();

/**
 * The composition root of the browser host (the app's worker, the test and benchmark
 * harnesses): ffmpeg.wasm in a worker of its own, Silero VAD in another (onnxruntime-web's
 * plain build), Whisper and the translation model through transformers.js, the browser's fetch (cross-origin rules
 * apply). Whatever loads is kept for the worker's life, whatever the settings of later calls.
 */
export function browserEnginePorts(settings: BrowserEngineSettings): EnginePorts {
  const { modelHost, whisperModel } = settings;
  const vadModel = settings.vadModel ?? SILERO_VAD.id;
  const translationModel = settings.translationModel ?? DEFAULT_TRANSLATION_MODEL;
  const segmentation = settings.segmentationModel ?? DEFAULT_SEGMENTATION_MODEL;
  const embedding = settings.embeddingModel ?? DEFAULT_EMBEDDING_MODEL;
  const prepare = async (runtime: RuntimeName) => settings.prepareRuntime?.(runtime);
  /** transformers.js, its runtime made ready first: the build the device decides. */
  const transformers = async (device: Device) => {
    await prepare(runtimeFor(device));
    return configureTransformers(modelHost, device, settings.threads);
  };
  const detectorKey = `${modelHost}|${vadModel}`;
  let loadDetector = detectors.get(detectorKey);
  if (!loadDetector) {
    loadDetector = workerSpeechDetectors(modelHost, vadModel);
    detectors.set(detectorKey, loadDetector);
  }
  const detector = loadDetector;
  const speechDetector: SpeechDetectorLoader = async (options) => {
    await prepare('speech');
    return detector(options);
  };
  return {
    ffmpeg: (ffmpeg ??= browserFfmpeg({ prepare: () => prepare('decoder') })),
    fetch: (url, init) => fetch(url, { ...init, mode: 'cors', credentials: 'omit' }),
    crossOriginFetch: true,
    speechDetector,
    async recogniser({ onProgress }) {
      const device = await settings.device();
      const dtypes = settings.dtypes ?? {};
      return recognisers.get(
        `${modelHost}|${whisperModel}|${device}|${JSON.stringify(dtypes)}`,
        async () =>
          loadWhisper(await transformers(device), whisperModel, device, onProgress, dtypes),
      );
    },
    // The translator runs on WASM with 8-bit weights whatever the recogniser's device: at full
    // precision M2M100 is four times the download, and the GPU's memory is Whisper's.
    translator: {
      modelId: translationModel,
      load: ({ onProgress }) =>
        translators.get(`${modelHost}|${translationModel}`, async () =>
          loadTranslator(
            await transformers(await settings.device()),
            translationModel,
            'wasm',
            onProgress,
          ),
        ),
    },
    // The speaker models run on WASM at full precision: they are small (6 and 27 MB), and
    // they run after recognition, so the GPU stays Whisper's.
    speakers: {
      segmentationId: segmentation,
      embeddingId: embedding,
      load: ({ onProgress }) =>
        speakerModels.get(`${modelHost}|${segmentation}|${embedding}`, async () =>
          loadSpeakerModels(
            await transformers(await settings.device()),
            { segmentation, embedding },
            'wasm',
            onProgress,
          ),
        ),
    },
    ...(settings.spill === false ? {} : { spill }),
    // The emotion model runs on WASM, after recognition, so the GPU stays Whisper's.
    emotionModels: {
      load: (id, { onProgress }) =>
        emotionModels.get(`${modelHost}|${id}`, async () =>
          loadEmotionModel(await transformers(await settings.device()), id, 'wasm', onProgress),
        ),
    },
    wordLists: browserWordLists,
    clock: () => performance.now() / 1000,
  };
}
