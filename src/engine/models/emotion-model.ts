import { EMOTION_CHOICES } from '../../core/model-catalog';
import { softmax } from '../../core/understanding/voice-emotion';
import type { LoadedEmotionModel, ProgressListener } from '../ports';
import { downloadProgress } from './download-progress';
import { transformersLoadFailure } from './transformers-load-failure';
import type { TransformersModule } from './transformers-port';

/** Where the emotion model runs: onnxruntime-node's CPU, or WASM in the browser. */
export type EmotionDevice = 'cpu' | 'wasm';

interface ModelCall {
  (inputs: Record<string, unknown>): Promise<Record<string, { data: unknown; dims: number[] }>>;
  config: Record<string, unknown>;
}
type Extractor = ((audio: Float32Array) => Promise<Record<string, unknown>>) & {
  config: Record<string, unknown>;
};

/**
 * Loads a speech-emotion model in the transformers.js layout (a wav2vec2, HuBERT or WavLM
 * sequence classifier, as the hub's ONNX exports have them): the model through
 * `AutoModelForAudioClassification`, its feature extractor through `AutoFeatureExtractor`.
 * Catalogue models load their listed weights (8-bit for the large ones); others full precision.
 */
export async function loadEmotionModel(
  transformers: TransformersModule,
  id: string,
  device: EmotionDevice,
  onProgress?: ProgressListener,
): Promise<LoadedEmotionModel> {
  const dtype = EMOTION_CHOICES.find((c) => c.id === id)?.dtype ?? 'fp32';
  let model: ModelCall;
  let features: Extractor;
  try {
    [model, features] = (await Promise.all([
      transformers.AutoModelForAudioClassification.from_pretrained(id, {
        device,
        dtype,
        progress_callback: downloadProgress(id, onProgress),
      }),
      transformers.AutoFeatureExtractor.from_pretrained(id, {}),
    ])) as unknown as [ModelCall, Extractor];
  } catch (thrown) {
    throw transformersLoadFailure(transformers, 'emotion', id, thrown);
  }
  const id2label = (model.config.id2label ?? {}) as Record<string, string>;
  const labels = Object.keys(id2label)
    .sort((a, b) => Number(a) - Number(b))
    .map((k) => id2label[k]!);
  return {
    id,
    sampleRate: Number(features.config.sampling_rate ?? 16000),
    labels,
    async classify(audio) {
      const inputs = await features(audio);
      const out = await model({ input_values: inputs.input_values });
      return softmax(out.logits!.data as Float32Array);
    },
  };
}
