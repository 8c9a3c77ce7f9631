import { useState } from 'react';
import { displayName, nameProblem, type SpeakerNames } from '../../core/edit/speaker-names';
import { speakerColours } from '../lib/speaker-colour';
import { length } from '../lib/time';
import { useAppStore } from '../store/app-store';
import { RememberVoice } from './RememberVoice';
import { VoiceOffer } from './VoiceOffer';

interface SpeakerNameFieldProps {
  label: string;
  labels: readonly string[];
  names: SpeakerNames;
  /** Seconds the speaker speaks, shown beside the name. */
  seconds: number;
}

/**
 * A speaker's name, editable: kept on Enter or when the field is left, as one step of the undo
 * history. An empty name gives the speaker its label back; a name another speaker has is
 * refused with a message, and the text typed stays in the field to be corrected.
 */
export function SpeakerNameField({ label, labels, names, seconds }: SpeakerNameFieldProps) {
  const rename = useAppStore((s) => s.renameSpeaker);
  const hasVoice = useAppStore(
    (s) => s.resultVoices?.speakers.some((v) => v.speaker === label) ?? false,
  );
  const shown = displayName(label, names);
  const [text, setText] = useState(shown);
  const [problem, setProblem] = useState<string | null>(null);
  // Undo and redo change the name under the field: show theirs, keeping the focus.
  const [seen, setSeen] = useState(shown);
  if (seen !== shown) {
    setSeen(shown);
    setText(shown);
    setProblem(null);
  }
  const save = () => {
    const refused = nameProblem(label, text, labels, names);
    setProblem(refused);
    if (refused) return;
    if (text.trim() === '') setText(label);
    rename(label, text);
  };
  const id = `speaker-name-${label}`;
  const colours = speakerColours(label);
  return (
    <li className="min-w-0 space-y-1">
      <div className="flex items-center gap-2">
        <span
          aria-hidden="true"
          className={`size-3 shrink-0 rounded-full ring-1 ${colours.fill}`}
        />
        <label htmlFor={id} className="sr-only">
          {`Name of ${label}`}
        </label>
        <input
          id={id}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            if (problem) setProblem(null);
          }}
          onBlur={save}
          onKeyDown={(e) => {
            if (e.key === 'Enter') save();
            if (e.key === 'Escape') {
              setText(shown);
              setProblem(null);
            }
          }}
          aria-invalid={problem !== null}
          aria-describedby={problem ? `${id}-problem` : undefined}
          autoComplete="off"
          className={`w-36 min-w-0 rounded-md border bg-white px-2 py-1 text-sm font-medium text-slate-900 focus:outline-none focus:ring-2 focus:ring-indigo-600/50 ${problem ? 'border-rose-600' : 'border-slate-300 focus:border-indigo-600'}`}
          data-testid="speaker.name"
          data-speaker={label}
        />
        <span className="shrink-0 text-xs text-slate-600" data-testid="speaker.spoken">
          {length(seconds)} in this recording
        </span>
      </div>
      {problem && (
        <p
          id={`${id}-problem`}
          role="alert"
          className="text-xs font-medium text-rose-700"
          data-testid="speaker.name-problem"
        >
          {problem}
        </p>
      )}
      {hasVoice && (
        <div className="space-y-1 pl-5">
          <VoiceOffer label={label} />
          <RememberVoice label={label} />
        </div>
      )}
    </li>
  );
}
