import { termForm, type TopicWord } from './terms';

export interface Keyword {
  term: string;
  /** The spelling the part uses most (e.g. a German noun's capital). */
  written: string;
  score: number;
}

/**
 * The terms most characteristic of each part of a text against the other parts: how often the
 * part uses a term, weighted by how few parts use it (a term every part uses says little of any
 * of them). With a single part, its most frequent terms. Ties go to the term said first.
 */
export function characteristicTerms(
  parts: readonly (readonly TopicWord[])[],
  count: number,
): Keyword[][] {
  const holding = new Map<string, number>();
  for (const part of parts) {
    for (const t of new Set(part.map((w) => w.term))) holding.set(t, (holding.get(t) ?? 0) + 1);
  }
  return parts.map((part) => {
    const uses = new Map<string, { n: number; first: number; spellings: Map<string, number> }>();
    part.forEach((w, i) => {
      const u = uses.get(w.term) ?? { n: 0, first: i, spellings: new Map<string, number>() };
      u.n += 1;
      u.spellings.set(w.written, (u.spellings.get(w.written) ?? 0) + 1);
      uses.set(w.term, u);
    });
    return [...uses]
      .map(([term, u]) => ({
        term,
        written: [...u.spellings].sort((a, b) => b[1] - a[1])[0]![0],
        score: u.n * Math.log(1 + parts.length / holding.get(term)!),
        first: u.first,
      }))
      .sort((a, b) => b.score - a.score || a.first - b.first)
      .slice(0, count)
      .map(({ term, written, score }) => ({ term, written, score }));
  });
}

function capitalised(text: string, language: string): string {
  const first = text.charAt(0);
  let upper = first;
  try {
    upper = first.toLocaleUpperCase(language);
  } catch {
    upper = first.toUpperCase();
  }
  return upper + text.slice(1);
}

/** A few keywords as a short line: "Train, car, street". */
export function keywordLine(keywords: readonly Keyword[], language: string): string {
  return capitalised(keywords.map((k) => k.written).join(', '), language);
}

/**
 * The few consecutive words of one of the sentences that hold the most of the keywords (each
 * counted once, by its score), without leading or trailing words that hold none: a title in
 * the speaker's own words. Shorter wins a tie, then the earlier sentence.
 */
export function headlineFrom(
  sentences: readonly string[],
  keywords: readonly Keyword[],
  language: string,
  maxWords: number,
): string {
  const scoreOf = new Map(keywords.map((k) => [k.term, k.score]));
  const termsOf = (word: string) =>
    word
      .normalize('NFC')
      .split(/['’]/u)
      .map((p) => termForm(p.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ''), language))
      .filter((t) => scoreOf.has(t));
  let best: { words: string[]; score: number } | null = null;
  for (const sentence of sentences) {
    const words = sentence.split(/\s+/).filter(Boolean);
    const held = words.map(termsOf);
    for (let start = 0; start < words.length; start++) {
      if (held[start]!.length === 0) continue;
      for (let end = start; end < Math.min(words.length, start + maxWords); end++) {
        if (held[end]!.length === 0) continue;
        const distinct = new Set(held.slice(start, end + 1).flat());
        const score = [...distinct].reduce((s, t) => s + scoreOf.get(t)!, 0);
        const length = end - start + 1;
        if (
          best === null ||
          score > best.score + 1e-12 ||
          (Math.abs(score - best.score) <= 1e-12 && length < best.words.length)
        ) {
          best = { words: words.slice(start, end + 1), score };
        }
      }
    }
  }
  if (best === null) return keywordLine(keywords.slice(0, 3), language);
  const text = best.words.join(' ').replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
  return capitalised(text, language);
}
