/**
 * The term list: names and jargon kept in the settings, one a line, offered as the vocabulary
 * hint (`transcription_hint`) of the next requests.
 */

export const TERMS_KEY = 'murmur.terms';

/**
 * The most characters of hint the term list may make. The spec gives `transcription_hint` no
 * length, but the recogniser keeps at most half of Whisper's 448-token decoder context less
 * one (223 tokens) of it and drops the oldest beyond that; names and jargon take about one
 * token for every two or three characters, so 400 characters is what is sure to be kept whole.
 */
export const TERMS_HINT_LIMIT = 400;

/** The terms as the hint sends them: one a line, trimmed, blank lines left out, joined by ", ". */
export function termsHint(terms: string): string {
  return terms
    .split(/\r?\n/)
    .map((t) => t.trim())
    .filter((t) => t !== '')
    .join(', ');
}

/** Why the terms cannot be kept (too long for the hint), or null. */
export function termsProblem(terms: string): string | null {
  const length = termsHint(terms).length;
  if (length <= TERMS_HINT_LIMIT) return null;
  return `Terms are too long for the vocabulary hint (transcription_hint): joined they make ${length} characters, and at most ${TERMS_HINT_LIMIT} are kept. Remove some terms.`;
}

export function storedTerms(): string {
  try {
    return localStorage.getItem(TERMS_KEY) ?? '';
  } catch {
    return '';
  }
}

export function saveTerms(terms: string): void {
  try {
    if (terms.trim() === '') localStorage.removeItem(TERMS_KEY);
    else localStorage.setItem(TERMS_KEY, terms);
  } catch {
    // Storage refused (private browsing): the terms still hold for this visit.
  }
}
