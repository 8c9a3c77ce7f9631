import { useAppStore } from '../store/app-store';
import { cancelBatch } from '../store/batch-actions';
import { BatchItemRow } from './BatchItemRow';

/** The files of a batch, one after another, each with its progress and its result. */
export function BatchQueue() {
  const batch = useAppStore((s) => s.batch);
  const clearBatch = useAppStore((s) => s.clearBatch);
  // While a batch runs it can be stopped; before and after, the queue can be emptied.
  const active = useAppStore((s) => s.batchActive);
  if (batch.length === 0) return null;
  const done = batch.filter((i) => i.status === 'done').length;
  return (
    <section
      aria-labelledby="batch-title"
      data-testid="batch"
      className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="batch-title" className="text-lg font-semibold text-slate-900">
          Queue
        </h2>
        <p className="text-xs text-slate-600" data-testid="batch.summary">
          {done} of {batch.length} done · the same options for every file
        </p>
      </div>
      <ul className="divide-y divide-slate-200">
        {batch.map((item) => (
          <BatchItemRow key={item.id} item={item} />
        ))}
      </ul>
      <div className="mt-2 flex gap-2">
        {active ? (
          <button
            type="button"
            data-testid="batch.cancel-all"
            className="rounded-lg px-3 py-1.5 text-sm font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50"
            onClick={cancelBatch}
          >
            Cancel all
          </button>
        ) : (
          <button
            type="button"
            data-testid="batch.clear"
            className="rounded-lg px-3 py-1.5 text-sm font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50"
            onClick={clearBatch}
          >
            Clear the queue
          </button>
        )}
      </div>
    </section>
  );
}
