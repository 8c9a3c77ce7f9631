import type { BatchItem } from '../store/batch-slice';
import { cancelBatchItem } from '../store/batch-actions';
import { openHistoryEntry } from '../store/history-actions';

const STATUS: Record<BatchItem['status'], string> = {
  queued: 'Waiting',
  running: 'Starting',
  done: 'Done',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** One file of the batch with its own progress, and a way to stop it or open its result. */
export function BatchItemRow({ item }: { item: BatchItem }) {
  const fraction = item.progress?.fraction ?? null;
  const status =
    item.status === 'running' && item.progress
      ? `${item.progress.title}${fraction === null ? '' : ` · ${Math.round(fraction * 100)}%`}`
      : STATUS[item.status];
  return (
    <li className="py-3" data-testid="batch.item" data-status={item.status}>
      <div className="flex items-center gap-3">
        <div className="min-w-0 flex-1">
          <p className="truncate text-sm font-medium text-slate-900" data-testid="batch.item-name">
            {item.file.name}
          </p>
          <p className="text-xs text-slate-600" data-testid="batch.item-status">
            {status}
          </p>
        </div>
        {(item.status === 'queued' || item.status === 'running') && (
          <button
            type="button"
            data-testid="batch.item-cancel"
            aria-label={`Cancel ${item.file.name}`}
            className="rounded-lg px-3 py-1.5 text-sm font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50"
            onClick={() => cancelBatchItem(item.id)}
          >
            Cancel
          </button>
        )}
        {item.status === 'done' && item.entryId && (
          <button
            type="button"
            data-testid="batch.item-open"
            aria-label={`Open ${item.file.name}`}
            className="rounded-lg bg-indigo-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-indigo-700"
            onClick={() => void openHistoryEntry(item.entryId!)}
          >
            Open
          </button>
        )}
      </div>
      {item.status === 'running' && (
        <div
          role="progressbar"
          aria-label={`Progress of ${item.file.name}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={fraction === null ? undefined : Math.round(fraction * 100)}
          data-testid="batch.item-progress"
          className="mt-2 h-1.5 overflow-hidden rounded-full bg-slate-100"
        >
          <div
            className={`h-full rounded-full bg-indigo-500 transition-all ${fraction === null ? 'w-1/3 animate-pulse' : ''}`}
            style={fraction === null ? undefined : { width: `${fraction * 100}%` }}
          />
        </div>
      )}
      {item.error && (
        <p className="mt-1 text-xs text-rose-700" data-testid="batch.item-error">
          {item.error}
        </p>
      )}
    </li>
  );
}
