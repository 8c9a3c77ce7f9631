/**
 * Repeated-phrase loops, Whisper's best-known failure on long files: a phrase said over and
 * over inside a window ("thank you thank you thank you ..."), or the same line written window
 * after window over music or silence. These find them in text; the recogniser decides what to
 * drop (`engine/stages/recognition/repeat-guard.ts`).
 */

/** The words of a text as compared: lower case, letters, digits and apostrophes. */
export function comparedWords(text: string): string[] {
  return text
    .toLowerCase()
    .normalize('NFC')
    .replace(/[^\p{L}\p{N}'\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

export interface PhraseLoopOptions {
  /** A phrase said this many times in a row or more is a loop. */
  minRepeats: number;
  /** The longest phrase looked for, in words. */
  maxPhraseWords: number;
}

export const DEFAULT_PHRASE_LOOP: PhraseLoopOptions = { minRepeats: 3, maxPhraseWords: 8 };

/**
 * Which of `words` to keep once every loop is cut to its first saying: indices, in order. A
 * phrase (of 1 to `maxPhraseWords` words) said `minRepeats` times or more in a row is a loop;
 * the longest loops are cut first.
 */
export function phraseLoopCut(
  words: readonly string[],
  options: PhraseLoopOptions = DEFAULT_PHRASE_LOOP,
): number[] {
  const keep = words.map(() => true);
  const same = (a: number, b: number, n: number) => {
    for (let k = 0; k < n; k++) if (words[a + k] !== words[b + k]) return false;
    return true;
  };
  for (let n = options.maxPhraseWords; n >= 1; n--) {
    for (let start = 0; start + n * options.minRepeats <= words.length; start++) {
      if (!keep[start]) continue;
      let repeats = 1;
      while (
        start + (repeats + 1) * n <= words.length &&
        same(start, start + repeats * n, n) &&
        keep[start + repeats * n]
      ) {
        repeats++;
      }
      if (repeats < options.minRepeats) continue;
      keep.fill(false, start + n, start + repeats * n);
      start += repeats * n - 1;
    }
  }
  return keep.flatMap((k, i) => (k ? [i] : []));
}

/** Whether `text` (of at least `minWords` words) is the same line as one of `earlier`. */
export function repeatsEarlierLine(
  text: string,
  earlier: readonly string[],
  minWords: number,
): boolean {
  const words = comparedWords(text).join(' ');
  if (comparedWords(text).length < minWords) return false;
  return earlier.some((line) => comparedWords(line).join(' ') === words);
}
