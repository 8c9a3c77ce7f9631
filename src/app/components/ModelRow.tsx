import { formatBytes } from '../lib/history-entry';
import { downloadTransfer } from '../lib/progress';
import type { ManagedModel } from '../lib/managed-models';
import { useAppStore } from '../store/app-store';
import { deleteModel, downloadModel } from '../store/model-actions';

/** One model: its size, whether it is kept in this browser, and download or delete. */
export function ModelRow({ model }: { model: ManagedModel }) {
  const state = useAppStore((s) => s.models[model.role]);
  const cached = state.cachedBytes !== null && state.cachedBytes > 0;
  const fraction = state.downloading?.fraction ?? null;
  const transfer = state.downloading ? downloadTransfer(state.downloading.detail) : null;
  return (
    <li className="py-3" data-testid={`models.${model.role}`}>
      <div className="flex flex-wrap items-center gap-2">
        <div className="min-w-0 flex-1">
          <p className="text-sm font-medium text-slate-800">{model.label}</p>
          <p className="truncate text-xs text-slate-600">
            {model.id} ·{' '}
            <span data-testid={`models.${model.role}-size`}>
              {cached
                ? formatBytes(state.cachedBytes!)
                : model.approxMb !== null
                  ? `about ${formatBytes(model.approxMb * 1_000_000)}`
                  : state.hostedBytes !== null
                    ? formatBytes(state.hostedBytes)
                    : 'size unknown'}
            </span>
            {model.licence ? ` · ${model.licence}` : ''}
          </p>
          <p className="text-xs text-slate-700" data-testid={`models.${model.role}-status`}>
            {state.downloading
              ? `Downloading${fraction === null ? '' : ` · ${Math.round(fraction * 100)}%`}${transfer === null ? '' : ` · ${transfer}`}`
              : state.cachedBytes === null
                ? 'Checking…'
                : cached
                  ? `In this browser · ${formatBytes(state.cachedBytes!)}`
                  : 'Not downloaded'}
          </p>
        </div>
        {cached && !state.downloading ? (
          <button
            type="button"
            data-testid={`models.${model.role}-delete`}
            aria-label={`Delete the ${model.label.toLowerCase()} model`}
            className="rounded-lg px-3 py-1.5 text-sm font-medium text-rose-700 ring-1 ring-rose-200 hover:bg-rose-50"
            onClick={() => void deleteModel(model.role)}
          >
            Delete
          </button>
        ) : (
          <button
            type="button"
            data-testid={`models.${model.role}-download`}
            aria-label={`Download the ${model.label.toLowerCase()} model`}
            disabled={state.downloading !== null}
            className="rounded-lg bg-white px-3 py-1.5 text-sm font-medium text-indigo-700 ring-1 ring-slate-300 hover:bg-indigo-50 disabled:opacity-60"
            onClick={() => void downloadModel(model.role)}
          >
            Download
          </button>
        )}
      </div>
      {state.downloading && (
        <div
          role="progressbar"
          aria-label={`Download of the ${model.label.toLowerCase()} model`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={fraction === null ? undefined : Math.round(fraction * 100)}
          data-testid={`models.${model.role}-progress`}
          className="mt-2 h-1.5 overflow-hidden rounded-full bg-slate-100"
        >
          <div
            className={`h-full rounded-full bg-indigo-500 ${fraction === null ? 'w-1/3 animate-pulse' : ''}`}
            style={fraction === null ? undefined : { width: `${fraction * 100}%` }}
          />
        </div>
      )}
      {state.error && (
        <p
          role="alert"
          className="mt-1 text-xs text-rose-700"
          data-testid={`models.${model.role}-error`}
        >
          {state.error}
        </p>
      )}
    </li>
  );
}
