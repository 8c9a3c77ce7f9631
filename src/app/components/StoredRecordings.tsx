import { useAppStore } from '../store/app-store';
import { StoredRecordingItem } from './StoredRecordingItem';

/** Recordings kept from before (a reload, a crash, one not yet transcribed), offered back. */
export function StoredRecordings() {
  const stored = useAppStore((s) => s.storedRecordings);
  if (stored.length === 0) return null;
  return (
    <div
      className="rounded-lg border border-amber-200 bg-amber-50 p-3"
      data-testid="record.stored-list"
    >
      <h3 className="text-sm font-medium text-slate-900">Kept recordings</h3>
      <ul className="divide-y divide-amber-200">
        {stored.map((meta) => (
          <StoredRecordingItem key={meta.id} meta={meta} />
        ))}
      </ul>
    </div>
  );
}
