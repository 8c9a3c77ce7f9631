import type { Endpoint } from './endpoints';

export type FieldKind = 'file' | 'url' | 'enum' | 'language' | 'boolean' | 'text' | 'count';

export interface FieldSpec {
  name: string;
  kind: FieldKind;
  /** Endpoints that accept the field; absent: both. */
  endpoint?: Endpoint;
  description: string;
  /** The default as the spec or the original service states it; null: no default. */
  default: string | null;
  values?: readonly string[];
}

/** Every request field of the spec, in the spec's order, with its meaning and default. */
export const FIELD_SPECS: readonly FieldSpec[] = [
  {
    name: 'audio',
    kind: 'file',
    endpoint: 'audio',
    description: 'The audio file to transcribe (required unless audio_url is given).',
    default: null,
  },
  {
    name: 'audio_url',
    kind: 'url',
    endpoint: 'audio',
    description: 'Public URL of an audio file (ignored when audio is given).',
    default: null,
  },
  {
    name: 'video',
    kind: 'file',
    endpoint: 'video',
    description: 'The video file to transcribe (required unless video_url is given).',
    default: null,
  },
  {
    name: 'video_url',
    kind: 'url',
    endpoint: 'video',
    description: 'Public URL of a video file (ignored when video is given).',
    default: null,
  },
  {
    name: 'language_behaviour',
    kind: 'enum',
    description: 'How the spoken language is found.',
    default: 'automatic single language',
    values: ['automatic single language', 'automatic multiple languages', 'manual'],
  },
  {
    name: 'language',
    kind: 'language',
    description: 'English name of the spoken language; required when language_behaviour is manual.',
    default: null,
  },
  {
    name: 'toggle_noise_reduction',
    kind: 'boolean',
    description: 'Reduce background noise before recognition.',
    default: 'false',
  },
  {
    name: 'transcription_hint',
    kind: 'text',
    description: 'Custom vocabulary (names, terms) given to the recogniser; skipped when empty.',
    default: '',
  },
  {
    name: 'toggle_diarization',
    kind: 'boolean',
    description: 'Label who speaks when.',
    default: 'false',
  },
  {
    name: 'toggle_direct_translate',
    kind: 'boolean',
    description: 'Translate the transcription (beta).',
    default: 'false',
  },
  {
    name: 'target_translation_language',
    kind: 'language',
    description: 'English name of the language to translate into; required with translation.',
    default: null,
  },
  {
    name: 'webhook_url',
    kind: 'url',
    description: 'URL the finished result is POSTed to.',
    default: null,
  },
  {
    name: 'diarization_num_speakers',
    kind: 'count',
    description: 'Exact number of speakers (positive integer).',
    default: null,
  },
  {
    name: 'diarization_min_speakers',
    kind: 'count',
    description: 'Fewest speakers to find (positive integer).',
    default: null,
  },
  {
    name: 'diarization_max_speakers',
    kind: 'count',
    description: 'Most speakers to find (positive integer).',
    default: null,
  },
  {
    name: 'output_format',
    kind: 'enum',
    description: 'How prediction is rendered.',
    default: 'json',
    values: ['json', 'srt', 'vtt', 'txt'],
  },
  {
    name: 'toggle_chapterization',
    kind: 'boolean',
    description:
      'Cut the transcript into chapters where its topic changes, each with a headline, gist, keywords and summary (an added field).',
    default: 'false',
  },
  {
    name: 'toggle_summarization',
    kind: 'boolean',
    description: 'Summarise the transcript with sentences of its own (an added field).',
    default: 'false',
  },
  {
    name: 'summarization_type',
    kind: 'enum',
    description:
      'How the summary is written: general (a paragraph a chapter), concise (a few sentences for the whole file) or bullet_points (one point a key sentence). An added field.',
    default: 'general',
    values: ['general', 'concise', 'bullet_points'],
  },
  {
    name: 'toggle_emotion_recognition',
    kind: 'boolean',
    description:
      'Tell how each sentence was said: its sentiment (positive, negative, neutral or mixed) from its words, with the share of time said with each by speaker and for the whole file (an added field).',
    default: 'false',
  },
  {
    name: 'emotion_model',
    kind: 'text',
    description:
      "With toggle_emotion_recognition, also tell each sentence's emotion from the voice with this audio-classification model from the model host (e.g. onnx-community/wav2vec2-emotion-recognition-ONNX). An added field; none by default: emotion is then null.",
    default: null,
  },
];

export const FIELD_NAMES: ReadonlySet<string> = new Set(FIELD_SPECS.map((f) => f.name));
