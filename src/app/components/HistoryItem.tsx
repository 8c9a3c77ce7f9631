import { length } from '../lib/time';
import {
  entryFindings,
  entrySegments,
  formatBytes,
  MEDIA_LEFT_OUT,
  type HistoryEntry,
} from '../lib/history-entry';
import { openHistoryEntry, removeHistoryEntry } from '../store/history-actions';

const WHEN = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** One kept transcription: what it was, when, and how to reopen or delete it. */
export function HistoryItem({ entry }: { entry: HistoryEntry }) {
  // As last corrected: the preview reads what reopening the entry shows.
  const first = entrySegments(entry)
    .map((s) => s.transcription.trim())
    .join(' ');
  const details = [
    WHEN.format(entry.finishedAt),
    length(entry.duration),
    entry.fileSize === null ? null : formatBytes(entry.fileSize),
    entry.media.kept ? 'with media' : MEDIA_LEFT_OUT[entry.media.reason],
  ].filter(Boolean);
  return (
    <li className="flex items-start gap-3 py-3" data-testid="history.item">
      <div className="min-w-0 flex-1">
        <p className="truncate font-medium text-slate-900" data-testid="history.item-title">
          {entry.name}
        </p>
        <p className="text-xs text-slate-600">{details.join(' · ')}</p>
        <p className="text-xs text-slate-600" data-testid="history.item-findings">
          {entryFindings(entry)}
        </p>
        <p className="mt-1 line-clamp-2 text-sm text-slate-700">{first || '(no speech)'}</p>
      </div>
      <div className="flex shrink-0 gap-2">
        <button
          type="button"
          data-testid="history.open"
          className="rounded-lg bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700"
          aria-label={`Open ${entry.name}`}
          onClick={() => void openHistoryEntry(entry.id)}
        >
          Open
        </button>
        <button
          type="button"
          data-testid="history.delete"
          className="rounded-lg px-3 py-1.5 text-sm font-medium text-rose-700 ring-1 ring-rose-200 hover:bg-rose-50"
          aria-label={`Delete ${entry.name}`}
          onClick={() => void removeHistoryEntry(entry.id)}
        >
          Delete
        </button>
      </div>
    </li>
  );
}
