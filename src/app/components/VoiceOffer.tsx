import { nameProblem, speakerLabels } from '../../core/edit/speaker-names';
import { useAppStore } from '../store/app-store';
import { currentNames, currentSegments } from '../store/editor-slice';

const acceptClass =
  'rounded-md bg-indigo-600 px-2 py-0.5 text-xs font-medium text-white hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

/**
 * What the stored voices made of a speaker: a note where a name came from a stored voice (so a
 * name nobody typed is never a mystery), or the name of a near voice offered ("Anna?") with a
 * button that gives it, as a rename.
 */
export function VoiceOffer({ label }: { label: string }) {
  const recognition = useAppStore((s) =>
    s.resultVoices?.recognitions.find((r) => r.speaker === label),
  );
  const names = useAppStore(currentNames);
  const segments = useAppStore(currentSegments);
  const given = names[label];
  if (!recognition) return null;
  if (given === recognition.name) {
    return (
      <p className="text-xs text-slate-600" data-testid="voice.recognised" data-speaker={label}>
        Named from a stored voice (see{' '}
        <a href="#voices" className="font-medium text-indigo-700 underline underline-offset-2">
          Voices
        </a>
        ).
      </p>
    );
  }
  // A sure match renamed or unnamed since is the person's choice: nothing is offered again;
  // nor is a name another speaker has been given meanwhile.
  const labels = speakerLabels(segments ?? []);
  if (recognition.sure || given !== undefined) return null;
  if (nameProblem(label, recognition.name, labels, names) !== null) return null;
  const accept = () => {
    useAppStore.getState().renameSpeaker(label, recognition.name);
    // The offer goes away: the focus goes to the name it gave (a field that stays).
    document.getElementById(`speaker-name-${label}`)?.focus();
  };
  return (
    <p className="flex flex-wrap items-center gap-1.5 text-xs text-slate-700">
      <span className="font-medium text-slate-900" data-testid="voice.offer" data-speaker={label}>
        {`${recognition.name}?`}
      </span>
      <button
        type="button"
        className={acceptClass}
        aria-label={`Accept the name ${recognition.name} for ${label}`}
        onClick={accept}
        data-testid="voice.accept"
        data-speaker={label}
      >
        Accept
      </button>
    </p>
  );
}
