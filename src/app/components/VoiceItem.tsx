import { useState, type FormEvent } from 'react';
import type { Voice } from '../../core/voices/voice';
import { length } from '../lib/time';
import { deleteStoredVoice, renameStoredVoice } from '../store/voice-actions';

const buttonClass =
  'rounded-md px-2 py-1 text-xs font-medium ring-1 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

/** One stored voice: its name, what it rests on, and its rename and delete. */
export function VoiceItem({ voice, index }: { voice: Voice; index: number }) {
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(voice.name);
  const [problem, setProblem] = useState<string | null>(null);
  const id = `voice-${index}`;
  const rests = `${length(voice.seconds)} of speech from ${voice.recordings} ${voice.recordings === 1 ? 'recording' : 'recordings'}`;
  const save = async (e: FormEvent) => {
    e.preventDefault();
    const refused = await renameStoredVoice(index, name);
    setProblem(refused);
    if (!refused) setRenaming(false);
  };
  return (
    <li className="space-y-1 py-2" data-testid="voices.item">
      {renaming ? (
        <form onSubmit={save} className="flex flex-wrap items-center gap-2">
          <label htmlFor={id} className="sr-only">
            {`New name for ${voice.name}`}
          </label>
          <input
            id={id}
            autoFocus
            value={name}
            onChange={(e) => setName(e.target.value)}
            onKeyDown={(e) => e.key === 'Escape' && setRenaming(false)}
            aria-invalid={problem !== null}
            aria-describedby={problem ? `${id}-problem` : undefined}
            autoComplete="off"
            className="w-40 min-w-0 rounded-md border border-slate-300 px-2 py-1 text-sm text-slate-900"
            data-testid="voices.name"
          />
          <button
            type="submit"
            className={`${buttonClass} text-indigo-700 ring-indigo-200`}
            data-testid="voices.save"
          >
            Save
          </button>
          <button
            type="button"
            className={`${buttonClass} text-slate-700 ring-slate-300`}
            onClick={() => {
              setRenaming(false);
              setProblem(null);
              setName(voice.name);
            }}
          >
            Cancel
          </button>
        </form>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="min-w-0">
            <p className="truncate text-sm font-medium text-slate-900" data-testid="voices.voice">
              {voice.name}
            </p>
            <p className="text-xs text-slate-600" data-testid="voices.rests">
              {rests} · {voice.model}
            </p>
          </div>
          <div className="flex gap-2">
            <button
              type="button"
              className={`${buttonClass} text-slate-700 ring-slate-300 hover:bg-slate-50`}
              aria-label={`Rename ${voice.name}`}
              onClick={() => setRenaming(true)}
              data-testid="voices.rename"
            >
              Rename
            </button>
            <button
              type="button"
              className={`${buttonClass} text-rose-700 ring-rose-200 hover:bg-rose-50`}
              aria-label={`Delete ${voice.name}`}
              onClick={() => void deleteStoredVoice(index)}
              data-testid="voices.delete"
            >
              Delete
            </button>
          </div>
        </div>
      )}
      {problem && (
        <p
          id={`${id}-problem`}
          role="alert"
          className="text-xs font-medium text-rose-700"
          data-testid="voices.problem"
        >
          {problem}
        </p>
      )}
    </li>
  );
}
