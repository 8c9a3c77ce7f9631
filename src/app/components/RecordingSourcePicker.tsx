import { RECORDING_SOURCES } from '../lib/recording/recording-source';
import { useAppStore } from '../store/app-store';

/** Microphone, a tab or screen, or both: chosen before Record. */
export function RecordingSourcePicker() {
  const source = useAppStore((s) => s.recordingSource);
  const busy = useAppStore((s) => s.recordingPhase !== 'idle');
  const setSource = useAppStore((s) => s.setRecordingSource);
  return (
    <div role="radiogroup" aria-label="Record from" className="flex gap-2 text-sm">
      {RECORDING_SOURCES.map(({ value, label }) => (
        <label
          key={value}
          className={`flex-1 cursor-pointer rounded-lg border px-2 py-1.5 text-center transition has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-700 has-[:disabled]:cursor-not-allowed ${
            source === value
              ? 'border-indigo-500 bg-indigo-50 font-medium text-indigo-800'
              : 'border-slate-300 text-slate-600 hover:bg-slate-50'
          }`}
        >
          <input
            type="radio"
            name="record-source"
            value={value}
            className="sr-only"
            checked={source === value}
            disabled={busy}
            data-testid={`record.source-${value}`}
            onChange={() => setSource(value)}
          />
          {label}
        </label>
      ))}
    </div>
  );
}
