import { closeResult } from '../store/session-persistence';

/**
 * Closes the transcript on screen and forgets it (with its media) in this browser's session:
 * it no longer comes back after a reload. An entry of the history stays there until deleted.
 */
export function CloseResultButton() {
  return (
    <button
      type="button"
      data-testid="result.close"
      className="rounded-lg px-3 py-1.5 text-sm font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      onClick={() => void closeResult()}
    >
      Close
    </button>
  );
}
