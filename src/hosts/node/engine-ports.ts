import {
  DEFAULT_EMBEDDING_MODEL,
  DEFAULT_SEGMENTATION_MODEL,
  DEFAULT_TRANSLATION_MODEL,
  HUB,
  SILERO_VAD,
} from '../../core/model-catalog';
import { ModelCache } from '../../engine/models/model-cache';
import { loadSileroVad } from '../../engine/models/silero-vad';
import { loadEmotionModel } from '../../engine/models/emotion-model';
import { loadSpeakerModels } from '../../engine/models/speaker-models';
import { loadTranslator } from '../../engine/models/translation-model';
import { loadWhisper } from '../../engine/models/whisper-model';
import type {
  EnginePorts,
  LoadedEmotionModel,
  LoadedSpeakerModels,
  LoadedTranslator,
  LoadedWhisper,
  ModelFiles,
} from '../../engine/ports';
import { nodeFfmpeg, type NodeFfmpegOptions } from './ffmpeg-core';
import { threadFfmpeg } from './ffmpeg-thread';
import { nodeModelFiles } from './model-files';
import { nodeOnnxRuntime } from './onnx-runtime';
import { nodeSpillFiles } from './spill-file';
import { configureModelSource, loadDroppingDamage } from './transformers-setup';
import { nodeWordLists } from './word-lists';

export interface NodeEngineSettings {
  /** Where models come from: a model host URL in the hub's layout or a folder (null: the hub). */
  models: string | null;
  /** The recognition model's id. */
  model: string;
  /** The translation model's id (default: M2M100 418M). */
  translationModel?: string;
  /** The speaker models' ids (default: pyannote segmentation 3.0, WeSpeaker ResNet34). */
  segmentationModel?: string;
  embeddingModel?: string;
  /** The voice activity model's id (default: the production Silero VAD). */
  vadModel?: string;
  ffmpeg?: NodeFfmpegOptions;
  /**
   * Run ffmpeg on a worker thread of its own rather than the caller's (the HTTP service: its
   * main thread must stay free to answer while a file decodes).
   */
  ffmpegThread?: boolean;
  /** Model files other than those of `models` (tests give missing or counted ones). */
  modelFiles?: ModelFiles;
  /**
   * onnxruntime's threads for one run of the recognition model (default: the runtime's, one per
   * core). The HTTP service gives each slot its share of the cores: more threads than cores,
   * spread over slots that run at once, only take turns.
   */
  threads?: number;
  /** See `EnginePorts.fetchTimeoutSeconds`. */
  fetchTimeoutSeconds?: number;
  /**
   * False: long decoded audio stays in memory rather than in a scratch file in the system's
   * temporary folder (benchmarks compare the two).
   */
  spill?: boolean;
}

const recognisers = new ModelCache<LoadedWhisper>();
const translators = new ModelCache<LoadedTranslator>();
const speakerModels = new ModelCache<LoadedSpeakerModels>();
const emotionModels = new ModelCache<LoadedEmotionModel>();

/**
 * The composition root of the Node host (the CLI, tests, benchmarks, tools): ffmpeg.wasm's
 * core in-process, onnxruntime-node for VAD, transformers.js on onnxruntime-node for Whisper
 * and the translation model (the CPU), Node's fetch (no cross-origin rules). Models load on first use and are kept.
 */
export function nodeEnginePorts(settings: NodeEngineSettings): EnginePorts {
  const files = settings.modelFiles ?? nodeModelFiles(settings.models ?? HUB);
  const onnx = nodeOnnxRuntime();
  const vadModel = settings.vadModel ?? SILERO_VAD.id;
  const translationModel = settings.translationModel ?? DEFAULT_TRANSLATION_MODEL;
  const segmentation = settings.segmentationModel ?? DEFAULT_SEGMENTATION_MODEL;
  const embedding = settings.embeddingModel ?? DEFAULT_EMBEDDING_MODEL;
  return {
    ffmpeg: settings.ffmpegThread ? threadFfmpeg() : nodeFfmpeg(settings.ffmpeg ?? {}),
    fetch: (url, init) => fetch(url, init),
    crossOriginFetch: false,
    ...(settings.fetchTimeoutSeconds === undefined
      ? {}
      : { fetchTimeoutSeconds: settings.fetchTimeoutSeconds }),
    speechDetector: (options) => loadSileroVad(onnx, files, { ...options, modelId: vadModel }),
    recogniser: ({ onProgress }) =>
      recognisers.get(`${settings.models ?? 'hub'}|${settings.model}|${settings.threads}`, () =>
        loadDroppingDamage([settings.model], () =>
          loadWhisper(
            configureModelSource(settings.models),
            settings.model,
            'cpu',
            onProgress,
            settings.threads === undefined
              ? {}
              : {
                  sessionOptions: { intraOpNumThreads: settings.threads, interOpNumThreads: 1 },
                },
          ),
        ),
      ),
    translator: {
      modelId: translationModel,
      load: ({ onProgress }) =>
        translators.get(`${settings.models ?? 'hub'}|${translationModel}`, () =>
          loadDroppingDamage([translationModel], () =>
            loadTranslator(
              configureModelSource(settings.models),
              translationModel,
              'cpu',
              onProgress,
            ),
          ),
        ),
    },
    speakers: {
      segmentationId: segmentation,
      embeddingId: embedding,
      load: ({ onProgress }) =>
        speakerModels.get(`${settings.models ?? 'hub'}|${segmentation}|${embedding}`, () =>
          loadDroppingDamage([segmentation, embedding], () =>
            loadSpeakerModels(
              configureModelSource(settings.models),
              { segmentation, embedding },
              'cpu',
              onProgress,
            ),
          ),
        ),
    },
    ...(settings.spill === false ? {} : { spill: nodeSpillFiles() }),
    emotionModels: {
      load: (id, { onProgress }) =>
        emotionModels.get(`${settings.models ?? 'hub'}|${id}`, () =>
          loadDroppingDamage([id], () =>
            loadEmotionModel(configureModelSource(settings.models), id, 'cpu', onProgress),
          ),
        ),
    },
    wordLists: nodeWordLists,
    clock: () => performance.now() / 1000,
  };
}
