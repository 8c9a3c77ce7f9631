/**
 * Which words of a script the recogniser heard, and where: a word-level edit-distance alignment
 * of the script with what was recognised, so that every script word that lines up with a heard
 * one (the same word, or another in its place) takes that word's time as a first estimate.
 */

export interface HeardWord {
  text: string;
  start: number;
  end: number;
}

/** A word as compared: case, accents and punctuation do not count. */
export function comparableWord(word: string): string {
  return word
    .normalize('NFKD')
    .replace(/[\s\p{M}\p{P}\p{S}]/gu, '')
    .toLowerCase();
}

const SKIP = 1;

/**
 * The cost of lining up two different words: between a half and one skip, by how far apart
 * they are written, so that a misheard word ("sea" for "see") lines up with its own and a
 * word that was not said is skipped rather than paired with a neighbour's. Words that share
 * neither their first nor their last letter are as far apart as words go (most pairs: the
 * distance is then not computed).
 */
function substitution(a: string, b: string): number {
  if (a === b) return 0;
  if (a[0] !== b[0] && a.at(-1) !== b.at(-1)) return 1;
  return 0.5 + (0.5 * editDistance(a, b)) / Math.max(a.length, b.length, 1);
}

/** The longest part of a word compared letter by letter. */
const COMPARED_LETTERS = 32;
const previousRow = new Uint8Array(COMPARED_LETTERS + 1);
const currentRow = new Uint8Array(COMPARED_LETTERS + 1);

/** Levenshtein distance of two words, each cut to `COMPARED_LETTERS`. */
function editDistance(a: string, b: string): number {
  const x = a.slice(0, COMPARED_LETTERS);
  const y = b.slice(0, COMPARED_LETTERS);
  let row = previousRow;
  let next = currentRow;
  for (let j = 0; j <= y.length; j++) row[j] = j;
  for (let i = 1; i <= x.length; i++) {
    next[0] = i;
    for (let j = 1; j <= y.length; j++) {
      const replace = row[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1);
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, replace);
    }
    [row, next] = [next, row];
  }
  return row[y.length]!;
}

/**
 * For each script word, the index of the heard word it lines up with (equal, or substituted),
 * or null where the recogniser heard nothing in its place. Ties prefer a match, so runs of
 * equal words stay together.
 */
export function matchWords(
  script: readonly string[],
  heard: readonly string[],
  compared: (word: string) => string = comparableWord,
): (number | null)[] {
  const a = script.map(compared);
  const b = heard.map(compared);
  const width = b.length + 1;
  // Single precision, as whole counts were kept before: the table is the length of the script
  // times that of what was heard. Each sum is rounded as it is stored, and again when the
  // way back compares it.
  const cost = new Float32Array((a.length + 1) * width);
  const pairCost = (i: number, j: number) => substitution(a[i - 1]!, b[j - 1]!);
  for (let j = 0; j <= b.length; j++) cost[j] = j * SKIP;
  for (let i = 1; i <= a.length; i++) {
    cost[i * width] = i * SKIP;
    for (let j = 1; j <= b.length; j++) {
      const pair = cost[(i - 1) * width + j - 1]! + pairCost(i, j);
      const scriptOnly = cost[(i - 1) * width + j]! + SKIP;
      const heardOnly = cost[i * width + j - 1]! + SKIP;
      cost[i * width + j] = Math.min(pair, scriptOnly, heardOnly);
    }
  }
  const matched: (number | null)[] = new Array<number | null>(a.length).fill(null);
  let i = a.length;
  let j = b.length;
  while (i > 0 && j > 0) {
    const here = cost[i * width + j]!;
    if (here === Math.fround(cost[(i - 1) * width + j - 1]! + pairCost(i, j))) {
      matched[i - 1] = j - 1;
      i--;
      j--;
    } else if (here === Math.fround(cost[(i - 1) * width + j]! + SKIP)) i--;
    else j--;
  }
  return matched;
}

export interface WordEstimate {
  start: number;
  end: number;
  /**
   * True for a word of a run that recognition heard nothing of and that has no time to have
   * been said in (a line the speaker skipped): it is not timed against the audio.
   */
  unheard: boolean;
  /** True where the time is that of a heard word the script word lines up with. */
  heard: boolean;
}

/** Speech is slower than this: a run with less time than this a word was not said. */
const LEAST_SECONDS_PER_WORD = 0.1;
/**
 * Even fast speech (five words a second) takes this long a word: a run of which recognition
 * heard nothing at all, between words it heard, with less time than this a word, was not said.
 * The time between two heard words is the pause between them more often than speech that was
 * missed, and the speech detector counts a short pause as speech.
 */
const UNHEARD_SECONDS_PER_WORD = 0.2;

/**
 * A first time for every script word: a word that lines up with a heard one takes its time;
 * a run of words heard nowhere shares the time between its neighbours (or the speech's edges)
 * by its length in characters, and is marked unheard when that time holds too little speech for
 * it to have been said (two words at least: one word can hide in a neighbour's time), the more
 * surely when recognition heard nothing between its neighbours.
 */
export function estimateWordTimes(
  script: readonly string[],
  heard: readonly HeardWord[],
  speech: { start: number; end: number },
  /** Seconds of speech found between two times (all of it when not known). */
  speechWithin: (from: number, to: number) => number = (from, to) => Math.max(0, to - from),
  /** A word as compared (see `comparableWord`). */
  compared: (word: string) => string = comparableWord,
): WordEstimate[] {
  const matched = matchWords(
    script,
    heard.map((w) => w.text),
    compared,
  );
  const estimates: (WordEstimate | null)[] = matched.map((k) =>
    k === null ? null : { start: heard[k]!.start, end: heard[k]!.end, unheard: false, heard: true },
  );
  let i = 0;
  while (i < estimates.length) {
    if (estimates[i] !== null) {
      i++;
      continue;
    }
    let j = i;
    while (j < estimates.length && estimates[j] === null) j++;
    const from = i > 0 ? estimates[i - 1]!.end : speech.start;
    const to = j < estimates.length ? estimates[j]!.start : speech.end;
    const lengths = script.slice(i, j).map((w) => Math.max(1, [...w].length));
    const total = lengths.reduce((s, n) => s + n, 0);
    const span = Math.max(0, to - from);
    // Heard words the matching skipped between the run's neighbours: something was said there.
    const heardBefore = i > 0 ? matched[i - 1]! : -1;
    const heardAfter = j < matched.length ? matched[j]! : heard.length;
    const perWord =
      heardAfter - heardBefore > 1 ? LEAST_SECONDS_PER_WORD : UNHEARD_SECONDS_PER_WORD;
    const unheard = heard.length > 0 && j - i >= 2 && speechWithin(from, to) < perWord * (j - i);
    let at = from;
    for (let k = i; k < j; k++) {
      const length = (lengths[k - i]! / total) * span;
      estimates[k] = { start: at, end: at + length, unheard, heard: false };
      at += length;
    }
    i = j;
  }
  return estimates as WordEstimate[];
}
