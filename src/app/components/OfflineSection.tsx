import { useEffect, useMemo, useState } from 'react';
import { managedModels } from '../lib/managed-models';
import { offlinePlanSentence } from '../lib/runtime-wording';
import { useAppStore } from '../store/app-store';
import { makeAvailableOffline, offlineModels, offlineRuntimes } from '../store/offline-actions';
import { RuntimeStatus } from './RuntimeStatus';

type Plan = Awaited<ReturnType<typeof offlineRuntimes>>;

/**
 * Make available offline: every runtime this device uses and the chosen models, fetched ahead
 * with their total said first, so that the app then transcribes with the network off.
 */
export function OfflineSection() {
  const settings = useAppStore((s) => s.settings);
  const offline = useAppStore((s) => s.offline);
  const setOffline = useAppStore((s) => s.setOffline);
  const [runtimes, setRuntimes] = useState<Plan | null>(null);
  useEffect(() => {
    let current = true;
    void offlineRuntimes().then((plan) => current && setRuntimes(plan));
    return () => {
      current = false;
    };
  }, [settings.useGpu]);
  const states = useAppStore((s) => s.models);
  const models = useMemo(
    () =>
      offlineModels(managedModels(settings), offline).map((m) => ({
        ...m,
        cachedBytes: states[m.role].cachedBytes,
        hostedBytes: states[m.role].hostedBytes,
      })),
    [settings, offline, states],
  );
  return (
    <div data-testid="offline" className="space-y-2 border-t border-slate-200 pt-3">
      <h3 className="text-sm font-medium text-slate-700">Offline</h3>
      <p className="text-xs text-slate-600">
        The first visit fetches only the page. The decoder and the speech runtime come when you
        first choose a file, the GPU runtime when a GPU first recognises, each model when first
        used; all are kept in this browser. To use Murmur with no network before that, fetch them
        now.
      </p>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          data-testid="offline.translation"
          checked={offline.translation}
          disabled={offline.running}
          onChange={(e) => setOffline({ translation: e.target.checked, done: false })}
        />
        With the translation model
      </label>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          data-testid="offline.speakers"
          checked={offline.speakers}
          disabled={offline.running}
          onChange={(e) => setOffline({ speakers: e.target.checked, done: false })}
        />
        With the speaker models
      </label>
      <p className="text-xs text-slate-700" data-testid="offline.plan">
        {runtimes ? offlinePlanSentence(runtimes, models) : 'Checking this device…'}
      </p>
      <button
        type="button"
        data-testid="offline.prepare"
        disabled={offline.running || runtimes === null}
        className="rounded-lg bg-white px-3 py-1.5 text-sm font-medium text-indigo-700 ring-1 ring-slate-300 hover:bg-indigo-50 disabled:opacity-60"
        onClick={() => void makeAvailableOffline()}
      >
        {offline.running ? 'Fetching…' : 'Make available offline'}
      </button>
      {offline.running && <RuntimeStatus testId="offline.runtime" />}
      {offline.done && (
        <p className="text-xs text-emerald-700" data-testid="offline.done">
          Ready for offline use: Murmur now transcribes in this browser with the network off.
        </p>
      )}
      {offline.error && (
        <p role="alert" className="text-xs text-rose-700" data-testid="offline.error">
          {offline.error}
        </p>
      )}
    </div>
  );
}
