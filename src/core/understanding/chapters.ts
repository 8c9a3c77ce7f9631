import type { Chapter, Segment } from '../contract/response';
import { characteristicTerms, headlineFrom, keywordLine } from './keywords';
import { endsSentence, transcriptSentences } from './sentences';
import { partKeySentences, withTerms, type SentenceTerms } from './summary';
import { topicWords, type StopWords, type TopicWord } from './terms';
import { topicBoundaries, type BoundarySettings, type TopicUnit } from './topic-boundaries';

export interface ChapterSettings extends BoundarySettings {
  /** A file shorter than this is one chapter. */
  shortFileSeconds: number;
  /** A transcript with fewer topic terms than this is one chapter. */
  minTerms: number;
  /** A silence this long between segments is a pause a chapter may end at. */
  pauseSeconds: number;
  keywords: number;
  headlineWords: number;
  gistKeywords: number;
}

export const CHAPTER_DEFAULTS: ChapterSettings = {
  blockTerms: 40,
  minChapterSeconds: 30,
  minDepth: 0.25,
  depthCutoff: 0,
  shortFileSeconds: 120,
  minTerms: 60,
  pauseSeconds: 0.5,
  keywords: 5,
  headlineWords: 6,
  gistKeywords: 3,
};

export interface Chapters {
  chapters: Chapter[];
  /** Why the transcript is one chapter (or none) without looking for topics; null otherwise. */
  note: string | null;
}

export const ONE_CHAPTER_SHORT = 'One chapter: the recording is shorter than 2 minutes.';
export const ONE_CHAPTER_FEW_WORDS =
  'One chapter: the transcript has too few words to tell where its topic changes.';
export const NO_CHAPTERS = 'No chapters: nothing was said.';

interface SpokenSegment {
  index: number;
  segment: Segment;
  words: TopicWord[];
}

/**
 * The transcript cut where its topic changes (lexical cohesion, TextTiling's family), each
 * chapter with a headline, a gist, keywords and a summary from its own text. Chapters end only
 * where a sentence, a speaker's turn or a pause ends, and last `minChapterSeconds` or more; a
 * file shorter than `shortFileSeconds`, or with few words, is one chapter, and says so.
 */
export function findChapters(
  transcription: readonly Segment[],
  duration: number,
  stopWords: StopWords,
  settings: ChapterSettings = CHAPTER_DEFAULTS,
): Chapters {
  const spoken: SpokenSegment[] = transcription
    .map((segment, index) => ({
      index,
      segment,
      words: topicWords(segment.transcription, segment.language, stopWords(segment.language)),
    }))
    .filter((s) => !s.segment.not_said && s.segment.transcription.trim() !== '');
  if (spoken.length === 0) return { chapters: [], note: NO_CHAPTERS };

  const punctuated = spoken.some((s) => endsSentence(s.segment.transcription));
  const units: TopicUnit[] = spoken.map((s, i) => {
    const next = spoken[i + 1]?.segment;
    const here = s.segment;
    return {
      terms: s.words.map((w) => w.term),
      time_begin: here.time_begin,
      time_end: here.time_end,
      mayEndChapter:
        next !== undefined &&
        (!punctuated ||
          endsSentence(here.transcription) ||
          next.time_begin - here.time_end >= settings.pauseSeconds ||
          next.speaker !== here.speaker),
    };
  });
  const termCount = units.reduce((n, u) => n + u.terms.length, 0);
  let note: string | null = null;
  let ends: number[] = [];
  if (duration < settings.shortFileSeconds) note = ONE_CHAPTER_SHORT;
  else if (termCount < settings.minTerms) note = ONE_CHAPTER_FEW_WORDS;
  else ends = topicBoundaries(units, settings);

  const ranges: [number, number][] = [];
  let first = 0;
  for (const end of [...ends, spoken.length - 1]) {
    ranges.push([first, end]);
    first = end + 1;
  }
  const keywordsByPart = characteristicTerms(
    ranges.map(([a, b]) => spoken.slice(a, b + 1).flatMap((s) => s.words)),
    settings.keywords,
  );
  const sentences = withTerms(
    transcriptSentences(transcription),
    (i) => transcription[i]!.language,
    stopWords,
  );
  const chapters = ranges.map(([a, b], c): Chapter => {
    const firstSegment = spoken[a]!;
    const lastSegment = spoken[b]!;
    const language = firstSegment.segment.language;
    const own: SentenceTerms[] = sentences.filter(
      (s) => s.sentence.segment >= firstSegment.index && s.sentence.segment <= lastSegment.index,
    );
    const keywords = keywordsByPart[c]!;
    return {
      headline: headlineFrom(
        own.map((s) => s.sentence.text),
        keywords,
        language,
        settings.headlineWords,
      ),
      gist: keywordLine(keywords.slice(0, settings.gistKeywords), language),
      keywords: keywords.map((k) => k.written),
      summary: partKeySentences(own)
        .map((s) => s.text)
        .join(' '),
      time_begin: firstSegment.segment.time_begin,
      time_end: lastSegment.segment.time_end,
      first_segment: firstSegment.index,
      last_segment: lastSegment.index,
    };
  });
  return { chapters, note };
}

/** The transcript's sentences grouped by chapter (all in one when there are none). */
export function sentencesByChapter(
  transcription: readonly Segment[],
  chapters: readonly Chapter[],
  stopWords: StopWords,
): SentenceTerms[][] {
  const sentences = withTerms(
    transcriptSentences(transcription),
    (i) => transcription[i]!.language,
    stopWords,
  );
  if (chapters.length === 0) return [sentences];
  return chapters.map((c) =>
    sentences.filter(
      (s) => s.sentence.segment >= c.first_segment && s.sentence.segment <= c.last_segment,
    ),
  );
}
