/**
 * The parts of transformers.js the engine uses. The host passes the module it imports (the
 * web build in the worker, the Node build in the CLI), so the engine does not import it.
 */
import type * as Transformers from '@huggingface/transformers';

export type TransformersModule = Pick<
  typeof Transformers,
  | 'env'
  | 'AutoTokenizer'
  | 'AutoFeatureExtractor'
  | 'AutoConfig'
  | 'AutoModel'
  | 'AutoModelForAudioFrameClassification'
  | 'AutoModelForAudioClassification'
  | 'WhisperForConditionalGeneration'
  | 'WhisperFeatureExtractor'
  | 'Tensor'
  | 'pipeline'
>;

export type Tensor = Transformers.Tensor;
