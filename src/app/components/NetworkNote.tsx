import { useAppStore } from '../store/app-store';

/**
 * What the shown transcription fetched and from where, and whether anything was sent: counted
 * from the browser's record of the page's and its workers' requests (see network-note.ts).
 */
export function NetworkNote() {
  const note = useAppStore((s) => s.network);
  if (note === null) return null;
  return (
    <p
      className="rounded-xl border border-slate-200 bg-slate-50 p-3 text-sm break-words text-slate-800"
      data-testid="result.network"
    >
      <span className="font-semibold text-slate-900">Network: </span>
      <span data-testid="result.network-note">{note}</span>
    </p>
  );
}
