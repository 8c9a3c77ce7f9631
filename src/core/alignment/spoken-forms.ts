/**
 * What a script word sounds like, as opposed to how it was written. Case and punctuation are
 * not heard, and a number may be written as digits or as words: a recogniser given a word in
 * a form it would not itself write finds the word unlikely, and forced decoding then times it
 * off its speech (and its neighbours with it). The script's text is never changed; only what
 * the recogniser is given and what is compared with what it heard.
 */

/** Turns a whole number into words in the script's language, or null where it cannot. */
export type NumberWords = (value: number) => string | null;

/** Leading and trailing punctuation and symbols ("¿", "«", "…", "!", "—"), not heard. */
const EDGES = /^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu;
/** A whole number as people write it: digits, thousands grouped by a comma, point or space. */
const WHOLE_NUMBER = /^\d{1,3}(?:[,.\u00a0\u202f]\d{3})+$|^\d+$/u;
/** Numbers read out whole; beyond this digits are read one by one or as a year, unknown. */
const LARGEST_SPOKEN = 1_000_000_000;

/** The word without the punctuation and symbols around it: "" for a word of punctuation only. */
export function spokenCore(word: string): string {
  return word.replace(EDGES, '');
}

/**
 * The ways a script word may be given to a recogniser, likeliest-looking first: as written
 * (without the punctuation around it), in lower case, with a capital first letter (a title
 * written in capitals, a sentence's first word placed mid-segment), and for a number, its
 * words in the script's language (with hyphens and as separate words). Empty for a word that
 * is punctuation only: nothing of it is said.
 */
export function spokenForms(word: string, numberWords?: NumberWords): string[] {
  const core = spokenCore(word);
  if (core === '') return [];
  const forms = caseForms(core);
  const value = wholeNumber(core);
  const said = value === null ? null : (numberWords?.(value) ?? null);
  if (said !== null && said.trim() !== '') {
    const spaced = said.replace(/-/g, ' ');
    forms.push(...caseForms(said), ...caseForms(spaced));
  }
  return [...new Set(forms)];
}

function caseForms(text: string): string[] {
  const lower = text.toLowerCase();
  const capital = lower.charAt(0).toUpperCase() + lower.slice(1);
  return [...new Set([text, lower, capital])];
}

/** The value of a whole number written in digits, or null. */
export function wholeNumber(core: string): number | null {
  if (!WHOLE_NUMBER.test(core)) return null;
  const value = Number(core.replace(/\D/g, ''));
  return Number.isSafeInteger(value) && value <= LARGEST_SPOKEN ? value : null;
}

/**
 * A word as compared with what was heard: case, accents, punctuation and the way a number is
 * written do not count ("Three," and "3" compare equal where `numberWords` says "three").
 */
export function comparableForm(word: string, numberWords?: NumberWords): string {
  const core = spokenCore(word);
  const value = wholeNumber(core);
  const said = value === null ? null : (numberWords?.(value) ?? null);
  return plain(said ?? core);
}

function plain(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\s\p{M}\p{P}\p{S}]/gu, '')
    .toLowerCase();
}
