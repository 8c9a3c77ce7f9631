/** Words that carry no topic, by language code; an unknown language has none. */
export type StopWords = (language: string) => ReadonlySet<string>;

const words = new Map<string, Intl.Segmenter>();

function wordSegmenter(language: string): Intl.Segmenter {
  let segmenter = words.get(language);
  if (!segmenter) {
    try {
      segmenter = new Intl.Segmenter(language, { granularity: 'word' });
    } catch {
      // A code the runtime's locale data does not know is still cut by the default rules.
      segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
    }
    words.set(language, segmenter);
  }
  return segmenter;
}

/** A word's comparable form: lower case, composed accents. */
export function termForm(word: string, language: string): string {
  let form = word.normalize('NFC');
  try {
    form = form.toLocaleLowerCase(language);
  } catch {
    form = form.toLowerCase();
  }
  return form;
}

/**
 * Every word of a text in order, as comparable forms beside how each was written: the runtime's
 * word breaking, elisions cut off ("n'est" is "n" and "est").
 */
export function textWords(text: string, language: string): TopicWord[] {
  const found: TopicWord[] = [];
  for (const piece of wordSegmenter(language).segment(text)) {
    if (!piece.isWordLike) continue;
    for (const written of piece.segment.normalize('NFC').split(/['’]/u)) {
      if (written !== '') found.push({ term: termForm(written, language), written });
    }
  }
  return found;
}

/** A word of a text that can carry its topic: its comparable form and how it was written. */
export interface TopicWord {
  term: string;
  written: string;
}

const IDEOGRAPHS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * The words of a text that can carry its topic, in order: words in the language's sense (the
 * runtime's word breaking, which also cuts scripts written without spaces), elisions split off
 * ("l'école" is "école"), without stop words, numbers alone or single letters.
 */
export function topicWords(
  text: string,
  language: string,
  stopWords: ReadonlySet<string>,
): TopicWord[] {
  const found: TopicWord[] = [];
  for (const piece of wordSegmenter(language).segment(text)) {
    if (!piece.isWordLike) continue;
    if (stopWords.has(termForm(piece.segment, language))) continue;
    for (const written of piece.segment.normalize('NFC').split(/['’]/u)) {
      const term = termForm(written, language);
      if ([...term].length < 2 && !IDEOGRAPHS.test(term)) continue;
      if (!/\p{L}/u.test(term) || stopWords.has(term)) continue;
      found.push({ term, written });
    }
  }
  return found;
}

/** Counts of each term. */
export function termCounts(terms: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** Cosine similarity of two term counts (0 when either is empty). */
export function cosine(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [t, x] of a) {
    na += x * x;
    const y = b.get(t);
    if (y !== undefined) dot += x * y;
  }
  for (const y of b.values()) nb += y * y;
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
