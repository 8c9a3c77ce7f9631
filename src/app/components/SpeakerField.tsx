import { useState } from 'react';
import { SPEAKER_NOT_ACTIVATED, type Segment } from '../../core/contract/response';
import { displayName, labelFor, type SpeakerNames } from '../../core/edit/speaker-names';
import { setSpeaker } from '../../core/edit/transcript-edits';
import { speakerColours } from '../lib/speaker-colour';
import { clock } from '../lib/time';
import { useAppStore } from '../store/app-store';

interface SpeakerFieldProps {
  segment: Segment;
  index: number;
  /** The speakers of the transcript, by label, and the names given to them. */
  labels: readonly string[];
  names: SpeakerNames;
}

/**
 * Who speaks in a segment, as a chip in the speaker's colour showing their name: a name typed
 * or picked from the speakers already there. A speaker's name means that speaker, so that
 * typing "Anna" gives the segment to the speaker named Anna.
 */
export function SpeakerField({ segment, index, labels, names }: SpeakerFieldProps) {
  const edit = useAppStore((s) => s.edit);
  const labelled = segment.speaker !== SPEAKER_NOT_ACTIVATED;
  const shown = labelled ? displayName(segment.speaker, names) : '';
  const [name, setName] = useState(shown);
  // Undo, redo and renames change the speaker under the box: show theirs (without remounting,
  // which would take the keyboard focus away).
  const [seen, setSeen] = useState(shown);
  if (seen !== shown) {
    setSeen(shown);
    setName(shown);
  }
  const save = () => {
    if (name.trim() !== '' && name.trim() !== shown) {
      const label = labelFor(name, labels, names);
      edit((segments) => setSpeaker(segments, index, label));
    } else {
      setName(shown);
    }
  };
  const colours = labelled ? speakerColours(segment.speaker) : null;
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full py-0.5 pr-1 pl-1.5 ${colours ? colours.chip : 'bg-white ring-1 ring-slate-300'}`}
      data-testid="editor.speaker-chip"
      data-speaker={labelled ? segment.speaker : undefined}
    >
      {colours && (
        <span
          aria-hidden="true"
          className={`size-2 shrink-0 rounded-full ring-1 ${colours.fill}`}
        />
      )}
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
        className="rounded-full bg-transparent px-1 text-[11px] font-semibold text-inherit placeholder:text-slate-600 focus:bg-white focus:text-slate-900 focus:outline-none focus:ring-2 focus:ring-indigo-600/60"
        data-testid="editor.speaker"
      />
    </span>
  );
}
