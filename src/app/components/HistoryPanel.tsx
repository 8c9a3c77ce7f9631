import { useMemo } from 'react';
import { formatBytes, historySize, searchHistory } from '../lib/history-entry';
import { useAppStore } from '../store/app-store';
import { clearHistory } from '../store/history-actions';
import { HistoryItem } from './HistoryItem';

/** Finished transcriptions kept in this browser: searchable, reopenable, deletable. */
export function HistoryPanel() {
  const entries = useAppStore((s) => s.historyEntries);
  const query = useAppStore((s) => s.historyQuery);
  const setQuery = useAppStore((s) => s.setHistoryQuery);
  const keepMedia = useAppStore((s) => s.keepHistoryMedia);
  const setKeepMedia = useAppStore((s) => s.setKeepHistoryMedia);
  const estimate = useAppStore((s) => s.storageEstimate);
  const shown = useMemo(() => searchHistory(entries, query), [entries, query]);
  const size = useMemo(() => historySize(entries), [entries]);
  return (
    <section
      aria-labelledby="history-title"
      data-testid="history"
      className="space-y-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="history-title" className="text-lg font-semibold text-slate-900">
          History
        </h2>
        <p className="text-xs text-slate-600" data-testid="history.storage">
          {entries.length} kept, {formatBytes(size)}
          {estimate &&
            ` · this site uses ${formatBytes(estimate.usage)} of ${formatBytes(estimate.quota)}`}
        </p>
      </div>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          data-testid="history.keep-media"
          checked={keepMedia}
          onChange={(e) => setKeepMedia(e.target.checked)}
        />
        Keep each file’s media too, for playback (when there is room)
      </label>
      {entries.length > 0 && (
        <div className="flex flex-wrap gap-2">
          <input
            type="search"
            data-testid="history.search"
            aria-label="Search the history"
            placeholder="Search the text of past transcriptions"
            className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-1.5 text-sm"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
          <button
            type="button"
            data-testid="history.clear"
            className="rounded-lg px-3 py-1.5 text-sm font-medium text-rose-700 ring-1 ring-rose-200 hover:bg-rose-50"
            onClick={() => {
              if (confirm('Delete every transcription in the history?')) void clearHistory();
            }}
          >
            Delete all
          </button>
        </div>
      )}
      {shown.length > 0 ? (
        <ul className="divide-y divide-slate-200">
          {shown.map((entry) => (
            <HistoryItem key={entry.id} entry={entry} />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600" data-testid="history.empty">
          {entries.length === 0
            ? 'Finished transcriptions are kept here, in this browser only.'
            : 'No transcription holds these words.'}
        </p>
      )}
    </section>
  );
}
