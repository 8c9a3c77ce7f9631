/**
 * The understanding stages, after the transcript is put together: chapters (the transcript cut
 * where its topic changes, each with a headline, gist, keywords and summary) and a summary of
 * the whole, each only when asked for. In: the assembled response. Out: the same response with
 * `prediction_raw.chapters` and `summarization`, and each stage's seconds in the metadata.
 * Both are extractive and need no model: they run in milliseconds, after the transcript.
 * Then, when asked for, how each sentence was said (`prediction_raw.emotions`): its sentiment
 * from its words, and the time said with each sentiment by speaker and for the whole file.
 */
import type { SummaryType } from '../../../core/contract/request';
import type { TranscriptionResponse } from '../../../core/contract/response';
import {
  findChapters,
  sentencesByChapter,
  type ChapterSettings,
} from '../../../core/understanding/chapters';
import { findEmotions } from '../../../core/understanding/emotions';
import { summarise } from '../../../core/understanding/summary';
import { roundToMillisecond } from '../../../core/units';
import type { StageContext } from '../../stage-context';
import type { ChannelAudio } from '../../streams/speech-audio';
import { hearEmotions } from './voice-emotions';
import { loadSentimentLexicons } from './sentiment-lexicons';
import { loadStopWords } from './stop-words';

export { loadSentimentLexicons, loadStopWords };

export interface UnderstandingInput {
  response: TranscriptionResponse;
  chapters: boolean;
  summary: SummaryType | null;
  settings: ChapterSettings;
}

export async function run(
  input: UnderstandingInput,
  chapterizing: StageContext,
  summarizing: StageContext,
): Promise<TranscriptionResponse> {
  if (!input.chapters && input.summary === null) return input.response;
  const raw = input.response.prediction_raw;
  const stopWords = await loadStopWords();
  chapterizing.signal?.throwIfAborted();

  const chaptersStart = chapterizing.clock();
  if (input.chapters) chapterizing.progress(null, 'Finding where the topic changes');
  const found = findChapters(
    raw.transcription,
    raw.metadata.provided_file_metadata.duration,
    stopWords,
    input.settings,
  );
  const chapterizationTime = input.chapters ? chapterizing.clock() - chaptersStart : 0;

  let summarization = null;
  let summarizationTime = 0;
  if (input.summary !== null) {
    summarizing.signal?.throwIfAborted();
    const started = summarizing.clock();
    summarizing.progress(null, 'Choosing the key sentences');
    summarization = summarise(
      sentencesByChapter(raw.transcription, found.chapters, stopWords),
      input.summary,
    );
    summarizationTime = summarizing.clock() - started;
  }

  const metadata = {
    ...raw.metadata,
    chapterization_time: roundToMillisecond(chapterizationTime),
    summarization_time: roundToMillisecond(summarizationTime),
    total_transcription_time: roundToMillisecond(
      raw.metadata.total_transcription_time + chapterizationTime + summarizationTime,
    ),
  };
  return {
    ...input.response,
    prediction_raw: {
      ...raw,
      metadata,
      ...(input.chapters
        ? {
            chapters: found.chapters,
            ...(found.note !== null ? { chapters_note: found.note } : {}),
          }
        : {}),
      ...(summarization !== null ? { summarization } : {}),
    },
  };
}

export interface EmotionsInput {
  response: TranscriptionResponse;
  asked: boolean;
  /** The model that tells emotion from the voice; null: emotion stays null. */
  emotionModel: string | null;
  /** The transcribed channels' audio, which the emotion model hears. */
  channels: readonly ChannelAudio[];
}

/**
 * Reads how each sentence was said, when asked: its sentiment from its words and, with an
 * emotion model, its emotion from its voice. `emotion_time` is the seconds this took (loading
 * the word lists and the model included), added to the total.
 */
export async function runEmotions(
  input: EmotionsInput,
  context: StageContext,
): Promise<TranscriptionResponse> {
  if (!input.asked) return input.response;
  const raw = input.response.prediction_raw;
  const started = context.clock();
  context.progress(null, 'Reading how each sentence was said');
  const lexicons = await loadSentimentLexicons(
    context.ports.wordLists,
    raw.transcription.map((s) => s.language),
  );
  context.signal?.throwIfAborted();
  const found = findEmotions(raw.transcription, lexicons);
  const emotions =
    input.emotionModel === null
      ? found.emotions
      : await hearEmotions(found.emotions, input.channels, input.emotionModel, context);
  const seconds = context.clock() - started;
  return {
    ...input.response,
    prediction_raw: {
      ...raw,
      metadata: {
        ...raw.metadata,
        emotion_time: roundToMillisecond(seconds),
        total_transcription_time: roundToMillisecond(
          raw.metadata.total_transcription_time + seconds,
        ),
      },
      emotions,
      emotions_summary: found.summary,
      ...(found.note !== null ? { emotions_note: found.note } : {}),
    },
  };
}
