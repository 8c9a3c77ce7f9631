import { useEffect, useMemo } from 'react';
import { formatBytes } from '../lib/history-entry';
import { managedModels } from '../lib/managed-models';
import { useAppStore } from '../store/app-store';
import { refreshModels, requestPersistence } from '../store/model-actions';
import { ModelRow } from './ModelRow';

/** Share of the quota past which the storage counts as nearly full. */
const NEARLY_FULL = 0.9;

/** The models in use, kept in this browser or not, and the storage they take. */
export function ModelManager() {
  const settings = useAppStore((s) => s.settings);
  const estimate = useAppStore((s) => s.storageEstimate);
  const persisted = useAppStore((s) => s.persisted);
  // A finished transcription has downloaded the models it used: look again. Not as one starts:
  // the sizes it would ask the model host for are the same, and a transcription's Network note
  // counts only what the transcription itself fetched.
  const status = useAppStore((s) => s.status);
  const running = status === 'running';
  const models = useMemo(() => managedModels(settings), [settings]);
  useEffect(() => {
    if (!running) void refreshModels();
  }, [settings, status, running]);
  const full = estimate !== null && estimate.usage >= estimate.quota * NEARLY_FULL;
  return (
    <div data-testid="models" className="space-y-2">
      <h3 className="text-sm font-medium text-slate-700">Models in this browser</h3>
      <ul className="divide-y divide-slate-200">
        {models.map((m) => (
          <ModelRow key={m.role} model={m} />
        ))}
      </ul>
      <p className="text-xs text-slate-600" data-testid="models.storage">
        {estimate
          ? `This site stores ${formatBytes(estimate.usage)} of the ${formatBytes(estimate.quota)} the browser allows it.`
          : 'This browser does not say how much it stores.'}{' '}
        {persisted
          ? 'The browser keeps it even when the disk runs low.'
          : 'The browser may clear it when the disk runs low.'}
      </p>
      {persisted === false && (
        <button
          type="button"
          data-testid="models.persist"
          className="text-xs font-medium text-indigo-700 underline-offset-2 hover:underline"
          onClick={() => void requestPersistence()}
        >
          Ask the browser to keep it
        </button>
      )}
      {full && (
        <p role="alert" className="text-xs text-rose-700" data-testid="models.full">
          Storage is nearly full: new models and history media may not be kept. Delete a model or
          history entries, or free space on the disk (the browser allows a share of it).
        </p>
      )}
    </div>
  );
}
