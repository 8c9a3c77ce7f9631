import { clock } from '../lib/time';
import { useAppStore } from '../store/app-store';

/** A sentence of the result: with the media there, a button that plays from where it was said. */
export function PlayableText({
  text,
  from,
  playable,
}: {
  text: string;
  from: number;
  playable: boolean;
}) {
  const seekTo = useAppStore((s) => s.seekTo);
  if (!playable) return <span>{text}</span>;
  return (
    <button
      type="button"
      title={`Play from ${clock(from)}`}
      className="rounded text-left hover:bg-indigo-50 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      onClick={() => seekTo(from)}
    >
      {text}
    </button>
  );
}
