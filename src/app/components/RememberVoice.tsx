import { useEffect, useRef, useState, type FormEvent } from 'react';
import { sameVoiceName } from '../../core/voices/voice';
import { length } from '../lib/time';
import { useAppStore } from '../store/app-store';
import { currentNames } from '../store/editor-slice';
import { rememberSpeaker } from '../store/voice-actions';

const smallButton =
  'rounded-md px-2 py-0.5 text-xs font-medium text-indigo-700 ring-1 ring-indigo-200 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

/**
 * Remember this voice: stores the speaker's voice in this browser under the name the speaker is
 * shown by, or asks for one when the speaker still has its label (the speaker takes it too).
 */
export function RememberVoice({ label }: { label: string }) {
  const given = useAppStore((s) => currentNames(s)[label]);
  const [asking, setAsking] = useState(false);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  // The form goes away: the focus goes back to the button that opened it, once it is there.
  const refocus = useRef(false);
  useEffect(() => {
    if (asking || !refocus.current) return;
    refocus.current = false;
    button.current?.focus();
  }, [asking]);
  const id = `remember-${label}`;

  const remember = async (wanted: string) => {
    const refused = await rememberSpeaker(label, wanted);
    setProblem(refused);
    if (refused) return;
    const { voices, resultVoices } = useAppStore.getState();
    const model = resultVoices?.speakers.find((s) => s.speaker === label)?.model;
    const voice = voices.find((v) => v.model === model && sameVoiceName(v.name, wanted));
    const recordings = voice?.recordings ?? 1;
    setDone(
      `Remembered “${voice?.name ?? wanted.trim()}” in this browser: the voice now rests on ${length(voice?.seconds ?? 0)} of speech from ${recordings} ${recordings === 1 ? 'recording' : 'recordings'}.`,
    );
    refocus.current = asking;
    setAsking(false);
    setName('');
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void remember(name);
  };

  return (
    <div className="space-y-1">
      {asking ? (
        <form onSubmit={submit} className="flex flex-wrap items-center gap-1.5">
          <label htmlFor={id} className="text-xs text-slate-700">
            Name for this voice
          </label>
          <input
            id={id}
            autoFocus
            value={name}
            onChange={(e) => setName(e.target.value)}
            onKeyDown={(e) => {
              if (e.key !== 'Escape') return;
              refocus.current = true;
              setAsking(false);
            }}
            aria-invalid={problem !== null}
            aria-describedby={problem ? `${id}-problem` : undefined}
            autoComplete="off"
            className="w-32 min-w-0 rounded-md border border-slate-300 bg-white px-2 py-0.5 text-sm text-slate-900 focus:border-indigo-600 focus:ring-2 focus:ring-indigo-600/50 focus:outline-none"
            data-testid="voice.name"
          />
          <button type="submit" className={smallButton} data-testid="voice.remember-name">
            Remember
          </button>
          <button
            type="button"
            className={smallButton}
            onClick={() => {
              refocus.current = true;
              setAsking(false);
              setProblem(null);
            }}
          >
            Cancel
          </button>
        </form>
      ) : (
        <button
          ref={button}
          type="button"
          className={smallButton}
          aria-describedby={done ? `${id}-done` : undefined}
          onClick={() => {
            setDone(null);
            if (given) void remember(given);
            else setAsking(true);
          }}
          data-testid="voice.remember"
          data-speaker={label}
        >
          Remember this voice
        </button>
      )}
      {problem && (
        <p
          id={`${id}-problem`}
          role="alert"
          className="text-xs font-medium text-rose-700"
          data-testid="voice.problem"
          data-speaker={label}
        >
          {problem}
        </p>
      )}
      <p
        id={`${id}-done`}
        role="status"
        className="text-xs text-slate-600"
        data-testid="voice.remembered"
        data-speaker={label}
      >
        {done}
      </p>
    </div>
  );
}
