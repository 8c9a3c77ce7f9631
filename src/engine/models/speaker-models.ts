import { EMBEDDING_CHOICES, SEGMENTATION_CHOICES } from '../../core/model-catalog';
import type { LoadedSpeakerModels, ProgressListener } from '../ports';
import { downloadProgress } from './download-progress';
import { transformersLoadFailure } from './transformers-load-failure';
import type { TransformersModule } from './transformers-port';

/** Where the speaker models run: onnxruntime-node's CPU, or WASM in the browser. */
export type SpeakerDevice = 'cpu' | 'wasm';

/** pyannote 3.1's merge distance, as cosine distance (see `EMBEDDING_CHOICES`). */
const DEFAULT_THRESHOLD = 0.248;
/** For a model nobody measured: a stored voice's name is offered a third past the match. */
const VOICE_NEAR_OVER_MATCH = 4 / 3;

interface ModelCall {
  (inputs: Record<string, unknown>): Promise<Record<string, Values>>;
  config: Record<string, unknown>;
  dispose(): Promise<void>;
}
interface Values {
  data: unknown;
  dims: number[];
}
type Extractor = ((audio: Float32Array) => Promise<Record<string, unknown>>) & {
  config: Record<string, unknown>;
};

/** Both models' loading as one figure: the segmentation model is a fifth of the bytes or less. */
function combined(onProgress: ProgressListener | undefined) {
  const parts = [0, 0];
  const report = (i: number) => (fraction: number | null, detail: string) => {
    if (fraction !== null) parts[i] = fraction;
    onProgress?.((parts[0]! + parts[1]!) / 2, detail);
  };
  return [report(0), report(1)] as const;
}

/**
 * Loads a speaker-segmentation model and a speaker-embedding model in the transformers.js
 * layout (pyannote segmentation 3.0 and WeSpeaker ResNet34 as the hub's ONNX exports have
 * them): the models through `AutoModelForAudioFrameClassification` and `AutoModel`, their
 * feature extractors (the frame geometry of the one, the fbank of the other) through
 * `AutoFeatureExtractor`. Full precision on both hosts: the two are small.
 */
export async function loadSpeakerModels(
  transformers: TransformersModule,
  ids: { segmentation: string; embedding: string },
  device: SpeakerDevice,
  onProgress?: ProgressListener,
): Promise<LoadedSpeakerModels> {
  const [segProgress, embProgress] = combined(onProgress);
  const options = (id: string, progress: ProgressListener) => ({
    device,
    dtype: 'fp32' as const,
    progress_callback: downloadProgress(id, progress),
  });
  let segmentation: ModelCall;
  let segFeatures: Extractor;
  try {
    [segmentation, segFeatures] = (await Promise.all([
      transformers.AutoModelForAudioFrameClassification.from_pretrained(
        ids.segmentation,
        options(ids.segmentation, segProgress),
      ),
      transformers.AutoFeatureExtractor.from_pretrained(ids.segmentation, {}),
    ])) as unknown as [ModelCall, Extractor];
  } catch (thrown) {
    throw transformersLoadFailure(transformers, 'speaker segmentation', ids.segmentation, thrown);
  }
  let embedding: ModelCall;
  let embFeatures: Extractor;
  try {
    [embedding, embFeatures] = (await Promise.all([
      transformers.AutoModel.from_pretrained(ids.embedding, options(ids.embedding, embProgress)),
      transformers.AutoFeatureExtractor.from_pretrained(ids.embedding, {}),
    ])) as unknown as [ModelCall, Extractor];
  } catch (thrown) {
    await segmentation.dispose();
    throw transformersLoadFailure(transformers, 'speaker embedding', ids.embedding, thrown);
  }
  const sampleRate = Number(segFeatures.config.sampling_rate ?? 16000);
  const windowSeconds =
    SEGMENTATION_CHOICES.find((c) => c.id === ids.segmentation)?.windowSeconds ?? 10;
  const choice = EMBEDDING_CHOICES.find((c) => c.id === ids.embedding);
  const configured = embedding.config.murmur_clustering_threshold;
  const threshold =
    typeof configured === 'number'
      ? configured
      : (choice?.clusteringThreshold ?? DEFAULT_THRESHOLD);
  const match = embedding.config.murmur_voice_match;
  const near = embedding.config.murmur_voice_near;
  const voiceThresholds =
    typeof match === 'number' && typeof near === 'number'
      ? { match, near }
      : (choice?.voiceThresholds ?? {
          match: threshold,
          near: threshold * VOICE_NEAR_OVER_MATCH,
        });
  return {
    segmentationId: ids.segmentation,
    embeddingId: ids.embedding,
    sampleRate,
    windowSamples: Math.round(windowSeconds * sampleRate),
    frameStep: Number(segFeatures.config.step ?? 270),
    frameSpan: Number(segFeatures.config.offset ?? 990),
    clusteringThreshold: threshold,
    voiceThresholds,
    async segment(windows) {
      if (windows.length === 0) return [];
      const length = windows[0]!.length;
      const batch = new Float32Array(windows.length * length);
      windows.forEach((w, i) => batch.set(w, i * length));
      const out = await segmentation({
        input_values: new transformers.Tensor('float32', batch, [windows.length, 1, length]),
      });
      const logits = out.logits!;
      const [, frames, classes] = logits.dims as [number, number, number];
      const data = logits.data as Float32Array;
      return windows.map((_, i) => ({
        logits: data.subarray(i * frames * classes, (i + 1) * frames * classes),
        frames,
        classes,
      }));
    },
    async embed(stretches) {
      const out: Float32Array[] = new Array<Float32Array>(stretches.length);
      // The model has no mask over time (its pooling would count padding), so only stretches
      // of one length share a batch.
      const byLength = new Map<number, number[]>();
      stretches.forEach((s, i) => byLength.set(s.length, [...(byLength.get(s.length) ?? []), i]));
      for (const indices of byLength.values()) {
        const features: Values[] = [];
        for (const i of indices) {
          features.push((await embFeatures(stretches[i]!)).input_features as Values);
        }
        const [, frames, bins] = features[0]!.dims as [number, number, number];
        const joined = new Float32Array(indices.length * frames * bins);
        features.forEach((f, k) => joined.set(f.data as Float32Array, k * frames * bins));
        const result = await embedding({
          input_features: new transformers.Tensor('float32', joined, [
            indices.length,
            frames,
            bins,
          ]),
        });
        const vectors = result.embeddings ?? Object.values(result)[0]!;
        const size = (vectors.data as Float32Array).length / indices.length;
        indices.forEach((i, k) => {
          out[i] = (vectors.data as Float32Array).slice(k * size, (k + 1) * size);
        });
      }
      return out;
    },
    async dispose() {
      await Promise.all([segmentation.dispose(), embedding.dispose()]);
    },
  };
}
