/**
 * Stop words of every language that has a kept list (stopwords-iso, keyed by the same ISO 639-1
 * codes Whisper uses). One module for all languages, loaded only when a transcription asks for
 * chapters or a summary, so that no other transcription fetches it.
 */
import type { StopWords } from '../../../core/understanding/terms';

let lists: Promise<Readonly<Record<string, readonly string[]>>> | null = null;

const NONE: ReadonlySet<string> = new Set();

/** The stop words by language, lower-cased as topic terms are. */
export async function loadStopWords(): Promise<StopWords> {
  lists ??= import('stopwords-iso/stopwords-iso.json', { with: { type: 'json' } }).then(
    (module) => module.default as Readonly<Record<string, readonly string[]>>,
  );
  const byLanguage = await lists;
  const sets = new Map<string, ReadonlySet<string>>();
  return (language) => {
    let set = sets.get(language);
    if (set === undefined) {
      const list = Object.hasOwn(byLanguage, language) ? byLanguage[language]! : [];
      set = list.length === 0 ? NONE : new Set(list.map((w) => w.normalize('NFC').toLowerCase()));
      sets.set(language, set);
    }
    return set;
  };
}
