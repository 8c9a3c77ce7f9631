import type { LanguageCode } from './languages';
import type { SummaryType } from './request';

/** Spec 2.4. Times in seconds. */
export interface Word {
  word: string;
  time_begin: number;
  time_end: number;
  confidence: number;
}

/** Spec 2.3. */
export interface Segment {
  words: Word[];
  transcription: string;
  language: LanguageCode | string;
  time_begin: number;
  time_end: number;
  speaker: string;
  channel: string;
  /**
   * Added fields, on translated segments only: the recognised text and its language, so that
   * the original can be shown beside the translation.
   */
  source_transcription?: string;
  source_language?: string;
  /**
   * Added field, on aligned segments only: `true` on a line of the given script that nobody
   * said (no time, confidence 0); absent on every other segment.
   */
  not_said?: true;
}

/** Spec 2.5. */
export interface SpeakerSpan {
  speaker: string;
  channel: string;
  time_begin: number;
  time_end: number;
}

/** Spec 2.7. */
export interface ProvidedFileMetadata {
  nb_channels: number;
  sample_rate: number;
  sample_width: number;
  duration: number;
  original_file_type: 'audio' | 'video';
  number_similar_channels: number;
}

/**
 * Billable audio per channel under the spec's section 8 rules. Not in the spec's metadata
 * table: an added field, so that callers can see what a file costs and why.
 */
export interface ChannelBilling {
  channel: string;
  billable_seconds: number;
  /** Why the channel is or is not billed. */
  reason: 'billed' | 'silent' | 'similar';
  similar_to: string | null;
}

/**
 * The web page a link led to, when the media was read from one (not in the spec: an added
 * field). `title` is the one yt-dlp gives the media (the page's, numbered for an embedded
 * element); null where it has none.
 */
export interface SourcePage {
  url: string;
  title: string | null;
}

/** Spec 2.6. */
export interface Metadata {
  provided_file_metadata: ProvidedFileMetadata;
  nb_silent_channels: number;
  total_speech_duration: number;
  audio_conversion_time: number;
  vad_time: number;
  inference_time: number;
  diarization_time: number;
  translation_time: number;
  emotion_time: number;
  summarization_time: number;
  chapterization_time: number;
  total_transcription_time: number;
  /** Added field: see `ChannelBilling`. */
  billing?: ChannelBilling[];
  /** Added field: see `SourcePage`. */
  source_page?: SourcePage;
}

/** A stretch of the transcript on one topic (an added field's items). Times in seconds. */
export interface Chapter {
  /** A few words of its own text that hold its most characteristic terms. */
  headline: string;
  /** Shorter still: its few most characteristic terms. */
  gist: string;
  /** Its most characteristic terms against the rest of the file, most characteristic first. */
  keywords: string[];
  /** Its key sentences, in the order they were said. */
  summary: string;
  time_begin: number;
  time_end: number;
  /** Indices in `transcription` of its first and last segments. */
  first_segment: number;
  last_segment: number;
}

/** A sentence of the transcript chosen for a summary, with where it was said. */
export interface SummarySentence {
  text: string;
  time_begin: number;
  time_end: number;
}

/** The summary (an added field). */
export interface Summarization {
  type: SummaryType;
  /** Paragraphs (general), sentences (concise) or "- " points (bullet_points). */
  text: string;
  /** The transcript's sentences it is made of, in the order they were said. */
  sentences: SummarySentence[];
}

/** How a sentence was said, read from its words (an added field's values). */
export const SENTIMENTS = ['positive', 'negative', 'neutral', 'mixed'] as const;
export type Sentiment = (typeof SENTIMENTS)[number];

/** A sentence of the transcript and how it was said (the items of an added field). */
export interface SentenceEmotion {
  text: string;
  /** From its words; `null` in a language Murmur has no sentiment lexicon for. */
  sentiment: Sentiment | null;
  /** How sure, from 0 to 1; `null` with the sentiment. */
  confidence: number | null;
  /**
   * From the voice (one of `EMOTIONS`); `null` where no emotion model ran, the sentence is
   * under a second, or the model is not sure.
   */
  emotion: string | null;
  emotion_confidence: number | null;
  time_begin: number;
  time_end: number;
  channel: string;
  speaker: string;
}

/** Shares of the time said with each sentiment, of `seconds` with one (0 to 1 each). */
export interface SentimentShares {
  seconds: number;
  positive: number;
  negative: number;
  neutral: number;
  mixed: number;
}

/** The sentiment of the whole file and of each speaker (an added field). */
export interface EmotionSummary {
  file: SentimentShares;
  speakers: (SentimentShares & { speaker: string; channel: string })[];
}

/** Spec 2.2. */
export interface PredictionRaw {
  transcription: Segment[];
  metadata: Metadata;
  speaker_mapping: SpeakerSpan[];
  /** Added field, when toggle_chapterization is on. */
  chapters?: Chapter[];
  /** Added field beside `chapters`: why the transcript is one chapter (or none) without a search. */
  chapters_note?: string;
  /** Added field, when toggle_summarization is on. */
  summarization?: Summarization;
  /** Added fields, when toggle_emotion_recognition is on: each sentence and the summary. */
  emotions?: SentenceEmotion[];
  emotions_summary?: EmotionSummary;
  /** Beside `emotions`: what was not found and why (a language without a lexicon). */
  emotions_note?: string;
}

/** Spec 2.1: the body of a successful response. */
export interface TranscriptionResponse {
  prediction: string;
  prediction_raw: PredictionRaw;
}

/** The speaker label of every segment when diarization is off (spec 2.3). */
export const SPEAKER_NOT_ACTIVATED = 'speaker_not_activated';

/** Channel labels are `channel_<n>`, counted from 0 (spec 2.3). */
export function channelLabel(index: number): string {
  return `channel_${index}`;
}
