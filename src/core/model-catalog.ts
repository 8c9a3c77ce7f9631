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
