import type { Segment } from '../../core/contract/response';
import { mergeWithNext, shiftTimes, splitBefore } from '../../core/edit/transcript-edits';
import { useAppStore } from '../store/app-store';

/** Seconds one press of "earlier" or "later" moves a segment. */
const NUDGE = 0.1;

interface SegmentActionsProps {
  segment: Segment;
  index: number;
  last: boolean;
  chosenWord: number | null;
  onEditText: () => void;
  onEditWord: () => void;
}

const actionClass =
  'rounded-md px-2 py-1 text-xs font-medium text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:text-slate-600 disabled:ring-slate-200';

/** What can be done to a segment: correct, split, merge, move in time. */
export function SegmentActions(props: SegmentActionsProps) {
  const { segment, index, last, chosenWord, onEditText, onEditWord } = props;
  const edit = useAppStore((s) => s.edit);
  const word = chosenWord === null ? null : segment.words[chosenWord];
  const canSplit = chosenWord !== null && chosenWord > 0 && chosenWord < segment.words.length;
  return (
    <div
      role="group"
      aria-label="Segment corrections"
      className="flex flex-wrap gap-1.5"
      data-testid="editor.actions"
    >
      <button
        type="button"
        className={actionClass}
        onClick={onEditText}
        data-testid="editor.edit-text"
      >
        Edit text
      </button>
      <button
        type="button"
        className={actionClass}
        disabled={word == null}
        onClick={onEditWord}
        data-testid="editor.edit-word"
      >
        {word ? `Correct “${word.word.trim()}”` : 'Correct word'}
      </button>
      <button
        type="button"
        className={actionClass}
        disabled={!canSplit}
        title={canSplit ? undefined : 'Choose the word the second part starts with'}
        onClick={() => edit((segments) => splitBefore(segments, index, chosenWord as number))}
        data-testid="editor.split"
      >
        {canSplit && word ? `Split before “${word.word.trim()}”` : 'Split'}
      </button>
      <button
        type="button"
        className={actionClass}
        disabled={last}
        onClick={() => edit((segments) => mergeWithNext(segments, index))}
        data-testid="editor.merge"
      >
        Merge with next
      </button>
      <button
        type="button"
        className={actionClass}
        aria-label={`Move ${NUDGE} seconds earlier`}
        disabled={segment.time_begin <= 0}
        onClick={() => edit((segments) => shiftTimes(segments, index, -NUDGE))}
        data-testid="editor.earlier"
      >
        − {NUDGE} s
      </button>
      <button
        type="button"
        className={actionClass}
        aria-label={`Move ${NUDGE} seconds later`}
        onClick={() => edit((segments) => shiftTimes(segments, index, NUDGE))}
        data-testid="editor.later"
      >
        + {NUDGE} s
      </button>
    </div>
  );
}
