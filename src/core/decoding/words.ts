/** One decoded text token with what the word grouping needs. */
export interface TimedToken {
  text: string;
  start: number;
  end: number;
  probability: number;
}

export interface TimedWord {
  text: string;
  start: number;
  end: number;
  confidence: number;
}

const PREPEND = new Set(['"', "'", '“', '¿', '(', '[', '{', '-', '¡', '«']);
const APPEND = new Set([
  '"',
  "'",
  '.',
  '。',
  ',',
  '，',
  '!',
  '！',
  '?',
  '？',
  ':',
  '：',
  '”',
  ')',
  ']',
  '}',
  '、',
  '»',
  ';',
]);

/**
 * Groups tokens into words: a token that starts with a space starts a new word; punctuation
 * that opens a phrase joins the next word, punctuation that closes one joins the previous.
 * A word's confidence is the geometric mean of its tokens' probabilities, so one doubtful
 * piece lowers the word as a whole.
 */
export function groupWords(tokens: readonly TimedToken[]): TimedWord[] {
  const groups: TimedToken[][] = [];
  for (const token of tokens) {
    if (token.text === '') continue;
    const current = groups.at(-1);
    const startsWord = token.text.startsWith(' ') || current === undefined;
    if (startsWord) groups.push([token]);
    else current.push(token);
  }
  // Merge stand-alone punctuation into its neighbour.
  const merged: TimedToken[][] = [];
  let pending: TimedToken[] = [];
  for (const group of groups) {
    const text = group
      .map((t) => t.text)
      .join('')
      .trim();
    if (PREPEND.has(text)) {
      pending.push(...group);
    } else if (APPEND.has(text) && merged.length > 0 && pending.length === 0) {
      merged.at(-1)!.push(...group);
    } else {
      merged.push([...pending, ...group]);
      pending = [];
    }
  }
  if (pending.length > 0) merged.push(pending);
  return merged.map((group) => {
    const logSum = group.reduce((s, t) => s + Math.log(Math.max(t.probability, 1e-12)), 0);
    return {
      text: ` ${group
        .map((t) => t.text)
        .join('')
        .trim()}`,
      start: group[0]!.start,
      end: Math.max(group[0]!.start, group.at(-1)!.end),
      confidence: Math.exp(logSum / group.length),
    };
  });
}
