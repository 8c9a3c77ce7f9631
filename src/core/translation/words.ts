import type { RecognisedWord } from '../assemble/response';

/**
 * Words of a translated segment. A translation has no timing of its own: its words are spread
 * over the segment's time in proportion to their length in characters (a longer word takes
 * longer to say), each with the mean confidence of the recognised words (the translation is
 * as sure as what it was made from). Subtitles are built from segments, so their cues keep the
 * recognised times exactly.
 */
export function spreadWords(
  text: string,
  start: number,
  end: number,
  source: readonly RecognisedWord[],
): RecognisedWord[] {
  const words = text.split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return [];
  const confidence =
    source.length === 0 ? 1 : source.reduce((sum, w) => sum + w.confidence, 0) / source.length;
  const weights = words.map((w) => w.length + 1);
  const total = weights.reduce((a, b) => a + b, 0);
  const span = Math.max(0, end - start);
  const out: RecognisedWord[] = [];
  let at = start;
  words.forEach((word, i) => {
    const next = i === words.length - 1 ? end : at + (span * weights[i]!) / total;
    out.push({ text: word, start: at, end: next, confidence });
    at = next;
  });
  return out;
}
