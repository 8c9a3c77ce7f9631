import { useEffect, useId } from 'react';
import { useAppStore } from '../store/app-store';
import { refreshMicrophones } from '../store/recording-actions';
import { inputClass } from './Field';

/** Which microphone to record; the browser names them once one has been allowed. */
export function MicrophonePicker() {
  const id = useId();
  const microphones = useAppStore((s) => s.microphones);
  const chosen = useAppStore((s) => s.microphoneId);
  const busy = useAppStore((s) => s.recordingPhase !== 'idle');
  const setMicrophoneId = useAppStore((s) => s.setMicrophoneId);
  useEffect(() => {
    void refreshMicrophones();
    const devices = navigator.mediaDevices;
    devices?.addEventListener('devicechange', refreshMicrophones);
    return () => devices?.removeEventListener('devicechange', refreshMicrophones);
  }, []);
  return (
    <div className="text-sm">
      <label htmlFor={id} className="mb-1 block font-medium text-slate-700">
        Microphone
      </label>
      <select
        id={id}
        className={inputClass}
        value={chosen ?? ''}
        disabled={busy}
        data-testid="record.microphone"
        onChange={(e) => setMicrophoneId(e.target.value || null)}
      >
        <option value="">The browser's default</option>
        {microphones.map((m) => (
          <option key={m.id} value={m.id}>
            {m.label}
          </option>
        ))}
      </select>
    </div>
  );
}
