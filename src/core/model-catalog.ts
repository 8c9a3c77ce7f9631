/** The models users can choose, and where they come from by default. */

/** A model the user can pick, with what it costs to download. */
export interface WhisperChoice {
  id: string;
  label: string;
  approxDownloadMb: number;
  webgpuOnly?: boolean;
}

export const WHISPER_CHOICES: readonly WhisperChoice[] = [
  { id: 'onnx-community/whisper-tiny_timestamped', label: 'Tiny (fastest)', approxDownloadMb: 45 },
  { id: 'onnx-community/whisper-base_timestamped', label: 'Base', approxDownloadMb: 85 },
  {
    id: 'onnx-community/whisper-small_timestamped',
    label: 'Small (most accurate on CPU)',
    approxDownloadMb: 260,
  },
  {
    id: 'onnx-community/whisper-large-v3-turbo_timestamped',
    label: 'Large v3 Turbo (GPU)',
    approxDownloadMb: 1000,
    webgpuOnly: true,
  },
];

export const DEFAULT_WHISPER = 'onnx-community/whisper-base_timestamped';
export const SILERO_VAD = { id: 'onnx-community/silero-vad', file: 'onnx/model.onnx' } as const;
export const HUB = 'https://huggingface.co/';

/** A translation model the user can pick: its licence and download size are shown with it. */
export interface TranslationChoice {
  id: string;
  label: string;
  /** The family decides the language codes (`core/translation/model-codes.ts`). */
  family: 'm2m100' | 'nllb';
  licence: string;
  /** May the translations be used commercially under the model's licence? */
  commercialUse: boolean;
  /** What the browser downloads (8-bit weights); Node loads full precision (about 4x). */
  approxDownloadMb: number;
  /**
   * The service codes of the languages it was trained on, where fewer than its family's
   * (the test model); absent: every language of the family.
   */
  languages?: readonly string[];
}

export const TRANSLATION_CHOICES: readonly TranslationChoice[] = [
  {
    id: 'Xenova/m2m100_418M',
    label: 'M2M100 418M (100 languages)',
    family: 'm2m100',
    licence: 'MIT',
    commercialUse: true,
    approxDownloadMb: 540,
  },
  {
    id: 'Xenova/nllb-200-distilled-600M',
    label: 'NLLB-200 distilled 600M (200 languages, non-commercial)',
    family: 'nllb',
    licence: 'CC-BY-NC-4.0',
    commercialUse: false,
    approxDownloadMb: 880,
  },
  {
    id: 'murmur-test/m2m100-synth',
    label: 'Test model (English, French, German, Spanish; test vocabulary only)',
    family: 'm2m100',
    licence: 'MIT',
    commercialUse: true,
    approxDownloadMb: 2,
    languages: ['en', 'fr', 'de', 'es'],
  },
];

export const DEFAULT_TRANSLATION_MODEL = 'Xenova/m2m100_418M';

/**
 * What is known of a translation model id: its catalogue entry, or for another id its family
 * guessed from the name (NLLB's ids name it; everything else is taken for M2M100's layout).
 */
export function translationChoiceOf(id: string): TranslationChoice {
  const known = TRANSLATION_CHOICES.find((choice) => choice.id === id);
  if (known) return known;
  return {
    id,
    label: id,
    family: /nllb/i.test(id) ? 'nllb' : 'm2m100',
    licence: 'unknown',
    commercialUse: false,
    approxDownloadMb: 0,
  };
}

/**
 * A speaker-segmentation model (pyannote segmentation 3.0's inputs and outputs: 16 kHz samples
 * in, per-frame powerset logits over three local speakers out).
 */
export interface SegmentationChoice {
  id: string;
  label: string;
  licence: string;
  /** Full-precision weights: the browser and Node both load these (the model is small). */
  approxDownloadMb: number;
  /** Seconds of audio the model was trained to look at at once. */
  windowSeconds: number;
}

/** A speaker-embedding model (WeSpeaker ResNet34's: 80-bin fbank in, one vector out). */
export interface EmbeddingChoice {
  id: string;
  label: string;
  licence: string;
  approxDownloadMb: number;
  /**
   * Cosine distance between two clusters' mean embeddings under which they are taken for one
   * speaker, when the number of speakers is not given. Depends on the model.
   */
  clusteringThreshold: number;
  /**
   * Cosine distances between a speaker and a stored voice at or under which the voice's name
   * is given (`match`) or offered (`near`). Used when the model's config.json does not say
   * (`murmur_voice_match`, `murmur_voice_near`); `npm run eval:voices` measures them.
   */
  voiceThresholds: { match: number; near: number };
}

export const SEGMENTATION_CHOICES: readonly SegmentationChoice[] = [
  {
    id: 'onnx-community/pyannote-segmentation-3.0',
    label: 'pyannote segmentation 3.0',
    licence: 'MIT',
    approxDownloadMb: 6,
    windowSeconds: 10,
  },
  {
    id: 'murmur-test/segmentation-synth',
    label: 'Test segmentation model (synthetic voices only)',
    licence: 'MIT',
    approxDownloadMb: 1,
    windowSeconds: 10,
  },
];

export const EMBEDDING_CHOICES: readonly EmbeddingChoice[] = [
  {
    id: 'onnx-community/wespeaker-voxceleb-resnet34-LM',
    label: 'WeSpeaker ResNet34 (VoxCeleb)',
    licence: 'CC-BY-4.0',
    approxDownloadMb: 27,
    // pyannote 3.1 merges clusters closer than 0.7046 in euclidean distance between unit
    // vectors: 1 - cos = d^2 / 2.
    clusteringThreshold: 0.248,
    // Not measured here (its weights are not on this machine): the clustering distance, under
    // which pyannote takes two clusters for one person, gives the name; a third more offers it.
    voiceThresholds: { match: 0.248, near: 0.33 },
  },
  {
    id: 'murmur-test/embedding-synth',
    label: 'Test speaker-embedding model (synthetic voices only)',
    licence: 'MIT',
    approxDownloadMb: 1,
    clusteringThreshold: 0.491,
    // `npm run eval:voices -- --generated 8`: speakers of an enrolled voice lay at 0.02-0.18
    // from it, speakers of a stranger at 0.74 or more; the name is given halfway between, and
    // offered halfway beyond.
    voiceThresholds: { match: 0.44, near: 0.58 },
  },
];

/** An audio-classification model that tells emotion from the voice. */
export interface EmotionChoice {
  id: string;
  label: string;
  licence: string;
  approxDownloadMb: number;
  /** The weights loaded: the 8-bit file where the model host has one. */
  dtype: 'fp32' | 'q8';
}

export const EMOTION_CHOICES: readonly EmotionChoice[] = [
  {
    id: 'onnx-community/wav2vec2-emotion-recognition-ONNX',
    label: 'Wav2Vec2 emotion recognition (English, acted speech)',
    // Its card names its training sets (RAVDESS, CREMA-D, TESS, SAVEE); some of them allow no
    // commercial use, so the person is pointed there rather than told a licence.
    licence:
      'see its model card (trained on RAVDESS, CREMA-D, TESS and SAVEE, some of which allow no commercial use)',
    approxDownloadMb: 95,
    dtype: 'q8',
  },
  {
    id: 'murmur-test/emotion-synth',
    label: 'Test emotion model (synthetic speaking manners only)',
    licence: 'MIT',
    approxDownloadMb: 1,
    dtype: 'fp32',
  },
];

export const DEFAULT_SEGMENTATION_MODEL = 'onnx-community/pyannote-segmentation-3.0';
export const DEFAULT_EMBEDDING_MODEL = 'onnx-community/wespeaker-voxceleb-resnet34-LM';
