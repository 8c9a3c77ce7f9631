import { useState } from 'react';
import { SPEAKER_NOT_ACTIVATED, type Segment } from '../../core/contract/response';
import { setSpeaker } from '../../core/edit/transcript-edits';
import { clock } from '../lib/time';
import { useAppStore } from '../store/app-store';

/** Who speaks in a segment: a name typed or picked from the speakers already named. */
export function SpeakerField({ segment, index }: { segment: Segment; index: number }) {
  const edit = useAppStore((s) => s.edit);
  const shown = segment.speaker === SPEAKER_NOT_ACTIVATED ? '' : segment.speaker;
  const [name, setName] = useState(shown);
  // Undo and redo change the speaker under the box: show theirs (without remounting, which
  // would take the keyboard focus away).
  const [seen, setSeen] = useState(shown);
  if (seen !== shown) {
    setSeen(shown);
    setName(shown);
  }
  const save = () => {
    if (name.trim() !== '' && name.trim() !== shown) {
      edit((segments) => setSpeaker(segments, index, name));
    } else {
      setName(shown);
    }
  };
  return (
    <input
      list="speaker-names"
      value={name}
      placeholder="Speaker"
      aria-label={`Speaker of the segment at ${clock(segment.time_begin)}`}
      size={Math.max(7, name.length + 1)}
      onChange={(e) => setName(e.target.value)}
      onBlur={save}
      onKeyDown={(e) => {
        if (e.key === 'Enter') save();
      }}
      className="rounded border border-slate-300 bg-white px-1.5 py-0.5 text-[11px] font-medium text-slate-900 placeholder:text-slate-600 focus:border-indigo-600 focus:outline-none focus:ring-2 focus:ring-indigo-600/40"
      data-testid="editor.speaker"
    />
  );
}
