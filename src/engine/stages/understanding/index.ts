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
import { summarise } from '../../../core/understanding/summary';
import { roundToMillisecond } from '../../../core/units';
import type { StageContext } from '../../stage-context';
import type { SentimentLexicons } from '../../../core/understanding/emotions';
import type { WordListsPort } from '../../ports';
import type { EmotionsInput } from './sentiment-reading';
import { loadStopWords } from './stop-words';

export { loadStopWords };
export type { EmotionsInput };

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

/**
 * The code that reads sentiment and emotion: a chunk of its own, fetched the first time a
 * transcription asks for it (or when the app is made available offline), so that no other
 * transcription, and no first visit, fetches it.
 */
export function loadSentimentReading() {
  return import('./sentiment-reading');
}

/** Reads how each sentence was said, when asked for (`prediction_raw.emotions`). */
export async function runEmotions(
  input: EmotionsInput,
  context: StageContext,
): Promise<TranscriptionResponse> {
  if (!input.asked) return input.response;
  const { readEmotions } = await loadSentimentReading();
  return readEmotions(input, context);
}

/** The sentiment lexicons of `languages`, from a host's kept word lists. */
export async function loadSentimentLexicons(
  lists: WordListsPort,
  languages: Iterable<string>,
): Promise<SentimentLexicons> {
  return (await loadSentimentReading()).loadSentimentLexicons(lists, languages);
}
