/**
 * Sentences of the shared parallel rows (../shared/test-corpus/parallel.tsv): the same rows,
 * in the same order, in each of the four test languages, for checking translations word for word.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED, type TestLanguage } from './speech';

export type ParallelRow = Record<TestLanguage, string>;

export function parallelRows(): ParallelRow[] {
  const [head, ...body] = readFileSync(join(SHARED, 'test-corpus', 'parallel.tsv'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => line.split('\t'));
  return body.map(
    (cells) => Object.fromEntries(head!.map((language, i) => [language, cells[i]!])) as ParallelRow,
  );
}

/** A repeatable pseudo-random sequence of `length` rows (indexes into `parallelRows()`). */
export function rowSequence(seed: number, length: number, rows: number): number[] {
  let state = (seed * 2246822519 + 0x632be5ab) >>> 0;
  const next = () => {
    state = (Math.imul(state ^ (state >>> 13), 3266489917) + 0x27d4eb2f) >>> 0;
    return state / 4294967296;
  };
  return Array.from({ length }, () => Math.floor(next() * rows));
}

/** The rows of a sequence in one language, as a sentence. */
export function rowsText(
  rows: readonly ParallelRow[],
  sequence: readonly number[],
  language: TestLanguage,
) {
  return sequence.map((i) => rows[i]![language]).join(' ');
}

/**
 * `text` (words of the rows in `from`) given word for word in `to`, as the rows pair them; a
 * word of no row is kept as it is. Every row is one word, so this is the exact translation of
 * whatever was recognised: a check of translation alone, recognition errors aside.
 */
export function rowsTranslation(
  rows: readonly ParallelRow[],
  text: string,
  from: TestLanguage,
  to: TestLanguage,
): string {
  const table = new Map(rows.map((row) => [row[from].toLowerCase(), row[to]]));
  return text
    .split(/\s+/)
    .filter((word) => word !== '')
    .map((word) => table.get(word.toLowerCase()) ?? word)
    .join(' ');
}
