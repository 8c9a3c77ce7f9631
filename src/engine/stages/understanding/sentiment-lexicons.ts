/**
 * Sentiment lexicons of the languages a transcript is in, each built once from its host's kept
 * list and Murmur's additions, and kept for later transcriptions.
 */
import { SENTIMENT_ADDITIONS } from '../../../core/understanding/sentiment-additions';
import {
  sentimentLexicon,
  type SentimentLexicon,
} from '../../../core/understanding/sentiment-lexicon';
import type { SentimentLexicons } from '../../../core/understanding/emotions';
import type { WordListsPort } from '../../ports';

const built = new WeakMap<WordListsPort, Map<string, Promise<SentimentLexicon | null>>>();

function lexiconOf(lists: WordListsPort, language: string): Promise<SentimentLexicon | null> {
  let byLanguage = built.get(lists);
  if (byLanguage === undefined) {
    byLanguage = new Map();
    built.set(lists, byLanguage);
  }
  let lexicon = byLanguage.get(language);
  if (lexicon === undefined) {
    lexicon = lists
      .sentiment(language)
      .then((list) =>
        list === null
          ? null
          : sentimentLexicon(language, [list, SENTIMENT_ADDITIONS[language] ?? {}]),
      );
    // A list that failed to load is tried again next time.
    lexicon.catch(() => byLanguage.delete(language));
    byLanguage.set(language, lexicon);
  }
  return lexicon;
}

/** The lexicons of `languages`, loaded together. */
export async function loadSentimentLexicons(
  lists: WordListsPort,
  languages: Iterable<string>,
): Promise<SentimentLexicons> {
  const loaded = new Map<string, SentimentLexicon | null>();
  await Promise.all(
    [...new Set(languages)].map(async (language) => {
      loaded.set(language, await lexiconOf(lists, language));
    }),
  );
  return (language) => loaded.get(language) ?? null;
}
