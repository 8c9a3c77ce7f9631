import type { LoadedTranslator, ProgressListener } from '../ports';
import { downloadProgress } from './download-progress';
import { transformersLoadFailure } from './transformers-load-failure';
import type { Dtype } from './model-settings';
import type { TransformersModule } from './transformers-port';

/** Where the translator runs: onnxruntime-node's CPU, or WASM in the browser. */
export type TranslationDevice = 'cpu' | 'wasm';

/**
 * Precision per device. Node: full precision (the fastest on a CPU, as for Whisper). Browser:
 * 8-bit weights, a quarter of the download (M2M100 418M is about 2 GB at full precision, too
 * much for a page and for a GPU's memory beside Whisper), on WASM.
 */
const TRANSLATION_DTYPE: Record<TranslationDevice, Dtype> = { cpu: 'fp32', wasm: 'q8' };

type TranslationCall = (
  texts: string[],
  options: { src_lang: string; tgt_lang: string; max_new_tokens: number },
) => Promise<{ translation_text: string }[]>;

interface TranslationPipelineLike {
  (...args: Parameters<TranslationCall>): ReturnType<TranslationCall>;
  tokenizer: { encode(text: string): number[] };
  dispose(): Promise<void>;
}

/**
 * Loads a many-to-many translation model in the transformers.js layout (M2M100, NLLB-200:
 * `onnx/encoder_model.onnx` + `onnx/decoder_model_merged.onnx` and their tokenizer) through
 * transformers.js' translation pipeline, which sets the source language token and forces the
 * target's as the first generated token.
 */
export async function loadTranslator(
  transformers: TransformersModule,
  id: string,
  device: TranslationDevice,
  onProgress?: ProgressListener,
): Promise<LoadedTranslator> {
  let translator: TranslationPipelineLike;
  try {
    translator = (await transformers.pipeline('translation', id, {
      device,
      dtype: TRANSLATION_DTYPE[device],
      progress_callback: downloadProgress(id, onProgress),
    })) as unknown as TranslationPipelineLike;
  } catch (thrown) {
    throw transformersLoadFailure(transformers, 'translation', id, thrown);
  }
  return {
    id,
    async translate(texts, from, to, options = {}) {
      if (texts.length === 0) return [];
      options.signal?.throwIfAborted();
      // A translation is rarely more than twice as long as its source: the cap stops a model
      // that repeats itself without cutting a real sentence short.
      const longest = Math.max(...texts.map((t) => translator.tokenizer.encode(t).length));
      const out = await translator([...texts], {
        src_lang: from,
        tgt_lang: to,
        max_new_tokens: 2 * longest + 16,
      });
      return out.map((o) => o.translation_text.trim());
    },
    dispose: () => translator.dispose(),
  };
}
