import { useRef, useState } from 'react';
import type { Word } from '../../core/contract/response';
import { editWord } from '../../core/edit/transcript-edits';
import { useAppStore } from '../store/app-store';

interface WordInputProps {
  segmentIndex: number;
  wordIndex: number;
  word: Word;
  onDone: () => void;
}

/** A word corrected in place: Enter keeps the correction, Escape leaves the word as it was. */
export function WordInput({ segmentIndex, wordIndex, word, onDone }: WordInputProps) {
  const edit = useAppStore((s) => s.edit);
  const original = word.word.trim();
  const [text, setText] = useState(original);
  // Leaving the field (blur) also fires when it is removed after Enter or Escape: act once.
  const finished = useRef(false);
  const finish = () => {
    finished.current = true;
    onDone();
  };
  const save = () => {
    if (finished.current) return;
    if (text.trim() !== original) {
      edit((segments) => editWord(segments, segmentIndex, wordIndex, text));
    }
    finish();
  };
  return (
    <input
      autoFocus
      aria-label={`Correct the word “${original}”`}
      value={text}
      size={Math.max(4, text.length + 1)}
      onChange={(e) => setText(e.target.value)}
      onBlur={save}
      onKeyDown={(e) => {
        if (e.key === 'Enter') save();
        else if (e.key === 'Escape') finish();
      }}
      className="max-w-full rounded border border-indigo-600 bg-white px-1 text-sm text-slate-900 focus:outline-none focus:ring-2 focus:ring-indigo-600/40"
      data-testid="editor.word-input"
    />
  );
}
