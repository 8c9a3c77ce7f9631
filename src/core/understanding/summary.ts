import type { SummaryType } from '../contract/request';
import type { Summarization as Summary, SummarySentence } from '../contract/response';
import { keySentences } from './sentence-rank';
import type { TranscriptSentence } from './sentences';
import { topicWords, type StopWords } from './terms';

/** Key sentences of a part: one for every five sentences it holds, one to three. */
export const MAX_PART_SENTENCES = 3;
/** Sentences of a concise summary, at most. */
export const MAX_CONCISE_SENTENCES = 3;

function partShare(count: number): number {
  return Math.min(MAX_PART_SENTENCES, Math.max(1, Math.ceil(count / 5)));
}

export interface SentenceTerms {
  sentence: TranscriptSentence;
  terms: string[];
}

/** Each sentence with its topic terms, in the language its segment was heard in. */
export function withTerms(
  sentences: readonly TranscriptSentence[],
  languageOf: (segment: number) => string,
  stopWords: StopWords,
): SentenceTerms[] {
  return sentences.map((sentence) => {
    const language = languageOf(sentence.segment);
    return {
      sentence,
      terms: topicWords(sentence.text, language, stopWords(language)).map((w) => w.term),
    };
  });
}

/** The key sentences of a part of the transcript (ranked among that part's own sentences). */
export function partKeySentences(part: readonly SentenceTerms[]): TranscriptSentence[] {
  const chosen = keySentences(
    part.map((s) => s.terms),
    partShare(part.length),
  );
  return chosen.map((i) => part[i]!.sentence);
}

const asSummarySentence = (s: TranscriptSentence): SummarySentence => ({
  text: s.text,
  time_begin: s.time_begin,
  time_end: s.time_end,
});

/**
 * An extractive summary: sentences of the transcript, unchanged and in order. `general`: a
 * paragraph of key sentences for each part (chapter); `bullet_points`: the same sentences as
 * points; `concise`: the few most central sentences of the whole.
 */
export function summarise(
  parts: readonly (readonly SentenceTerms[])[],
  type: SummaryType,
): Summary {
  if (type === 'concise') {
    const all = parts.flat();
    const chosen = keySentences(
      all.map((s) => s.terms),
      Math.min(MAX_CONCISE_SENTENCES, all.length),
    ).map((i) => all[i]!.sentence);
    return {
      type,
      text: chosen.map((s) => s.text).join(' '),
      sentences: chosen.map(asSummarySentence),
    };
  }
  const byPart = parts.filter((p) => p.length > 0).map(partKeySentences);
  const sentences = byPart.flat().map(asSummarySentence);
  const text =
    type === 'general'
      ? byPart.map((part) => part.map((s) => s.text).join(' ')).join('\n\n')
      : sentences.map((s) => `- ${s.text}`).join('\n');
  return { type, text, sentences };
}
