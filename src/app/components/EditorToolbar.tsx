import { useState } from 'react';
import { useAppStore } from '../store/app-store';
import { FindReplacePanel } from './FindReplacePanel';
import { ShortcutList } from './ShortcutList';

const buttonClass =
  'rounded-lg bg-white px-3 py-1.5 text-sm font-medium text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-500 disabled:opacity-60 disabled:ring-slate-200 disabled:hover:bg-slate-100';

/** Undo and redo of corrections, find and replace, and the list of keyboard shortcuts. */
export function EditorToolbar() {
  const [finding, setFinding] = useState(false);
  const canUndo = useAppStore((s) => s.historyIndex > 0);
  const canRedo = useAppStore((s) => s.historyIndex < s.history.length - 1);
  const undo = useAppStore((s) => s.undo);
  const redo = useAppStore((s) => s.redo);
  return (
    <div className="flex flex-wrap items-start gap-2 border-b border-slate-200 px-4 py-3">
      <h3 className="mr-auto self-center text-sm font-semibold text-slate-900">Transcript</h3>
      <button
        type="button"
        className={buttonClass}
        disabled={!canUndo}
        onClick={undo}
        aria-keyshortcuts="Control+Z"
        data-testid="editor.undo"
      >
        ↶ Undo
      </button>
      <button
        type="button"
        className={buttonClass}
        disabled={!canRedo}
        onClick={redo}
        aria-keyshortcuts="Control+Shift+Z"
        data-testid="editor.redo"
      >
        ↷ Redo
      </button>
      <button
        type="button"
        className={buttonClass}
        aria-expanded={finding}
        aria-controls="find-replace"
        onClick={() => setFinding(!finding)}
        data-testid="find.open"
      >
        Find and replace
      </button>
      <ShortcutList />
      {finding && <FindReplacePanel />}
    </div>
  );
}
