import { useState } from 'react';
import type { Segment } from '../../core/contract/response';
import { editSegmentText } from '../../core/edit/transcript-edits';
import { useAppStore } from '../store/app-store';

interface SegmentTextFormProps {
  segment: Segment;
  index: number;
  onDone: () => void;
}

/** A segment's whole text, rewritten in a text box. */
export function SegmentTextForm({ segment, index, onDone }: SegmentTextFormProps) {
  const edit = useAppStore((s) => s.edit);
  const [text, setText] = useState(segment.transcription.trim());
  const save = () => {
    if (text.trim() !== segment.transcription.trim()) {
      edit((segments) => editSegmentText(segments, index, text));
    }
    onDone();
  };
  return (
    <form
      className="space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <label className="sr-only" htmlFor={`segment-text-${index}`}>
        Text of the segment at {Math.round(segment.time_begin)} seconds
      </label>
      <textarea
        id={`segment-text-${index}`}
        autoFocus
        rows={Math.min(6, Math.max(2, Math.ceil(text.length / 60)))}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onDone();
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            save();
          }
        }}
        className="block w-full rounded-lg border border-slate-400 bg-white px-3 py-2 text-sm text-slate-900 focus:border-indigo-600 focus:outline-none focus:ring-2 focus:ring-indigo-600/40"
        data-testid="editor.segment-input"
      />
      <div className="flex gap-2">
        <button
          type="submit"
          className="rounded-lg bg-indigo-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
          data-testid="editor.segment-save"
        >
          Save text
        </button>
        <button
          type="button"
          onClick={onDone}
          className="rounded-lg px-3 py-1.5 text-sm font-medium text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
