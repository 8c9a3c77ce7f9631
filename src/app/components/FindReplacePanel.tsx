import { useEffect, useMemo, useState } from 'react';
import {
  findMatches,
  matchCountSentence,
  nextMatchIndex,
  replaceAll,
  replaceMatch,
} from '../../core/edit/find-replace';
import { useAppStore } from '../store/app-store';
import { currentSegments } from '../store/editor-slice';
import { FindCheckbox } from './FindCheckbox';
import { FindTextField } from './FindTextField';

const buttonClass =
  'rounded-lg bg-white px-3 py-1.5 text-sm font-medium text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-500 disabled:opacity-60 disabled:ring-slate-200 disabled:hover:bg-slate-100';

/**
 * Find and replace over the transcript: the matches counted as the search is typed, Previous
 * and Next to show each one, Replace for the one shown and Replace all as one undoable step.
 */
export function FindReplacePanel() {
  const segments = useAppStore(currentSegments);
  const edit = useAppStore((s) => s.edit);
  const setFindMatch = useAppStore((s) => s.setFindMatch);
  const [query, setQuery] = useState('');
  const [replacement, setReplacement] = useState('');
  const [wholeWords, setWholeWords] = useState(false);
  const [matchCase, setMatchCase] = useState(false);
  /** The match shown, by its place among the matches (null: none shown yet). */
  const [current, setCurrent] = useState<number | null>(null);
  const options = useMemo(() => ({ wholeWords, matchCase }), [wholeWords, matchCase]);
  const matches = useMemo(
    () => findMatches(segments ?? [], query, options),
    [segments, query, options],
  );
  const shown = current === null || matches.length === 0 ? null : current % matches.length;
  const match = shown === null ? null : (matches[shown] ?? null);

  useEffect(() => {
    setFindMatch(match);
  }, [match, setFindMatch]);
  useEffect(() => () => setFindMatch(null), [setFindMatch]);

  const count = matches.length;
  const step = (by: 1 | -1) => {
    if (count === 0) return;
    if (shown === null) setCurrent(by === 1 ? 0 : count - 1);
    else setCurrent((shown + by + count) % count);
  };
  const searchFor = (change: () => void) => {
    change();
    setCurrent(null);
  };
  const replaceOne = () => {
    const target = match ?? matches[0];
    if (!target || !segments) return;
    const next = replaceMatch(segments, target, replacement);
    edit(() => next);
    // The match after the replacement is shown next.
    setCurrent(nextMatchIndex(findMatches(next, query, options), target, replacement));
  };
  const replaceEvery = () => {
    if (count === 0) return;
    edit((s) => replaceAll(s, query, replacement, options).segments);
    setCurrent(null);
  };

  return (
    <section
      id="find-replace"
      aria-label="Find and replace"
      className="basis-full space-y-2 rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200"
      data-testid="find.panel"
    >
      <div className="flex flex-wrap gap-2">
        <FindTextField
          id="find-query"
          label="Find"
          value={query}
          onChange={(v) => searchFor(() => setQuery(v))}
          onEnter={() => step(1)}
          testId="find.query"
        />
        <FindTextField
          id="find-replacement"
          label="Replace with"
          value={replacement}
          onChange={setReplacement}
          onEnter={replaceOne}
          testId="find.replacement"
        />
      </div>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <FindCheckbox
          label="Whole words"
          checked={wholeWords}
          onChange={(v) => searchFor(() => setWholeWords(v))}
          testId="find.whole-words"
        />
        <FindCheckbox
          label="Match case"
          checked={matchCase}
          onChange={(v) => searchFor(() => setMatchCase(v))}
          testId="find.match-case"
        />
        <p
          role="status"
          aria-live="polite"
          className="mr-auto text-sm text-slate-700"
          data-testid="find.count"
        >
          {query.trim() === '' ? '' : matchCountSentence(count)}
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          className={buttonClass}
          disabled={count === 0}
          onClick={() => step(-1)}
          data-testid="find.previous"
        >
          Previous
        </button>
        <button
          type="button"
          className={buttonClass}
          disabled={count === 0}
          onClick={() => step(1)}
          data-testid="find.next"
        >
          Next
        </button>
        <button
          type="button"
          className={buttonClass}
          disabled={count === 0}
          onClick={replaceOne}
          data-testid="find.replace"
        >
          Replace
        </button>
        <button
          type="button"
          className={buttonClass}
          disabled={count === 0}
          onClick={replaceEvery}
          data-testid="find.replace-all"
        >
          Replace all
        </button>
      </div>
    </section>
  );
}
