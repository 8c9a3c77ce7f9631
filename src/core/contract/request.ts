import type { Endpoint } from './endpoints';
import type { LanguageCode, TranslationTargetCode } from './languages';

export const LANGUAGE_BEHAVIOURS = [
  'automatic single language',
  'automatic multiple languages',
  'manual',
] as const;
export type LanguageBehaviour = (typeof LANGUAGE_BEHAVIOURS)[number];

export const OUTPUT_FORMATS = ['json', 'srt', 'vtt', 'txt'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** How a summary is written (an added field's values). */
export const SUMMARY_TYPES = ['general', 'concise', 'bullet_points'] as const;
export type SummaryType = (typeof SUMMARY_TYPES)[number];

/** What a host knows of an uploaded file. A browser `File` has this shape. */
export interface MediaFile {
  readonly name: string;
  readonly size: number;
  readonly type: string;
}

export type MediaInput<F extends MediaFile = MediaFile> =
  { kind: 'file'; file: F } | { kind: 'url'; url: string };

export interface DiarizationBounds {
  num_speakers: number | null;
  min_speakers: number | null;
  max_speakers: number | null;
}

/** A validated request with the spec's defaults applied. Field names follow the spec. */
export interface TranscriptionRequest<F extends MediaFile = MediaFile> {
  endpoint: Endpoint;
  media: MediaInput<F>;
  language_behaviour: LanguageBehaviour;
  /** Set only for `manual`: the code of the named language. */
  language: LanguageCode | null;
  toggle_noise_reduction: boolean;
  /** Empty when absent: an empty hint is skipped. */
  transcription_hint: string;
  toggle_diarization: boolean;
  diarization: DiarizationBounds;
  toggle_direct_translate: boolean;
  /** Set only when translation is on. */
  target_translation_language: TranslationTargetCode | null;
  webhook_url: string | null;
  output_format: OutputFormat;
  /** Added fields: the transcript cut into chapters where its topic changes; a summary of it. */
  toggle_chapterization: boolean;
  toggle_summarization: boolean;
  /** How the summary is written; `general` by default (and when summaries are off). */
  summarization_type: SummaryType;
  /** Added field: each sentence's sentiment, with a summary by speaker and for the file. */
  toggle_emotion_recognition: boolean;
  /** Added field: the audio-classification model that tells emotion from the voice; none: null. */
  emotion_model: string | null;
  /** Notes on fields that were accepted but have no effect (e.g. a URL beside a file). */
  notices: string[];
}

/**
 * A request with the spec's defaults for every option not given: for hosts and tools that
 * build requests in code rather than parse them from form fields.
 */
export function requestWithDefaults<F extends MediaFile>(
  endpoint: Endpoint,
  media: MediaInput<F>,
  options: Partial<Omit<TranscriptionRequest<F>, 'endpoint' | 'media'>> = {},
): TranscriptionRequest<F> {
  return {
    endpoint,
    media,
    language_behaviour: 'automatic single language',
    language: null,
    toggle_noise_reduction: false,
    transcription_hint: '',
    toggle_diarization: false,
    diarization: { num_speakers: null, min_speakers: null, max_speakers: null },
    toggle_direct_translate: false,
    target_translation_language: null,
    webhook_url: null,
    output_format: 'json',
    toggle_chapterization: false,
    toggle_summarization: false,
    summarization_type: 'general',
    toggle_emotion_recognition: false,
    emotion_model: null,
    notices: [],
    ...options,
  };
}
