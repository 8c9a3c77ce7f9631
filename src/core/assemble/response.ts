import type { OutputFormat } from '../contract/request';
import {
  SPEAKER_NOT_ACTIVATED,
  channelLabel,
  type ChannelBilling,
  type Metadata,
  type ProvidedFileMetadata,
  type Segment,
  type TranscriptionResponse,
  type Word,
} from '../contract/response';
import { renderPrediction } from '../format/prediction';
import { roundToMillisecond, type Seconds } from '../units';

export interface RecognisedWord {
  text: string;
  start: Seconds;
  end: Seconds;
  confidence: number;
}

export interface RecognisedSegment {
  text: string;
  language: string;
  start: Seconds;
  end: Seconds;
  channel: number;
  words: RecognisedWord[];
  /** Set on a translated segment: what was recognised, in the language it was heard in. */
  source?: { text: string; language: string };
  /** Set on a line of a script that nobody said: it has no time and its words no confidence. */
  notSaid?: true;
  /** Set when diarization is on: the segment's speaker label. */
  speaker?: string;
}

export type StageTimings = Pick<
  Metadata,
  | 'audio_conversion_time'
  | 'vad_time'
  | 'inference_time'
  | 'diarization_time'
  | 'translation_time'
  | 'total_transcription_time'
>;

export interface AssembleInput {
  segments: readonly RecognisedSegment[];
  file: ProvidedFileMetadata;
  /** Silent channels among several; ignored for a single channel (always -1 then). */
  nbSilentChannels: number;
  totalSpeechDuration: Seconds;
  timings: Partial<StageTimings>;
  billing?: ChannelBilling[];
  outputFormat: OutputFormat;
}

const withLeadingSpace = (text: string) => ` ${text.replace(/\s+/g, ' ').trim()}`;

function toWord(w: RecognisedWord): Word {
  const begin = roundToMillisecond(w.start);
  return {
    word: withLeadingSpace(w.text),
    time_begin: begin,
    time_end: Math.max(begin, roundToMillisecond(w.end)),
    confidence: Math.min(1, Math.max(0, w.confidence)),
  };
}

/** One recognised segment in the response's shape (spec 2.3). */
export function toResponseSegment(s: RecognisedSegment, speaker: string): Segment {
  const begin = roundToMillisecond(s.start);
  return {
    words: s.words.map(toWord),
    transcription: withLeadingSpace(s.text),
    language: s.language,
    time_begin: begin,
    time_end: Math.max(begin, roundToMillisecond(s.end)),
    speaker,
    channel: channelLabel(s.channel),
    ...(s.notSaid ? { not_said: true as const } : {}),
    ...(s.source
      ? {
          source_transcription: withLeadingSpace(s.source.text),
          source_language: s.source.language,
        }
      : {}),
  };
}

/** The spec's response object from what the pipeline's stages produced. */
export function assembleResponse(input: AssembleInput): TranscriptionResponse {
  const ordered = [...input.segments].sort((a, b) => a.start - b.start || a.channel - b.channel);
  const transcription: Segment[] = ordered.map((s) =>
    toResponseSegment(s, s.speaker ?? SPEAKER_NOT_ACTIVATED),
  );
  const t = input.timings;
  const metadata: Metadata = {
    provided_file_metadata: { ...input.file },
    nb_silent_channels: input.file.nb_channels === 1 ? -1 : input.nbSilentChannels,
    total_speech_duration: roundToMillisecond(input.totalSpeechDuration),
    audio_conversion_time: roundToMillisecond(t.audio_conversion_time ?? 0),
    vad_time: roundToMillisecond(t.vad_time ?? 0),
    inference_time: roundToMillisecond(t.inference_time ?? 0),
    diarization_time: roundToMillisecond(t.diarization_time ?? 0),
    translation_time: roundToMillisecond(t.translation_time ?? 0),
    emotion_time: 0,
    summarization_time: 0,
    chapterization_time: 0,
    total_transcription_time: roundToMillisecond(t.total_transcription_time ?? 0),
    ...(input.billing ? { billing: input.billing } : {}),
  };
  return {
    prediction: renderPrediction(transcription, input.outputFormat),
    prediction_raw: {
      transcription,
      metadata,
      speaker_mapping: transcription.map((s) => ({
        speaker: s.speaker,
        channel: s.channel,
        time_begin: s.time_begin,
        time_end: s.time_end,
      })),
    },
  };
}
