import { clock } from '../lib/time';
import { useAppStore } from '../store/app-store';
import {
  pauseRecording,
  resumeRecording,
  startRecording,
  stopRecording,
} from '../store/recording-actions';

const button =
  'rounded-lg px-3 py-1.5 text-sm font-medium disabled:cursor-not-allowed disabled:opacity-60';

/** Record, then Pause or Resume and Stop, with the time recorded so far. */
export function RecordingControls() {
  const phase = useAppStore((s) => s.recordingPhase);
  const seconds = useAppStore((s) => s.recordedSeconds);
  if (phase === 'idle' || phase === 'starting') {
    return (
      <button
        type="button"
        className={`${button} bg-rose-700 text-white hover:bg-rose-800 dark:bg-rose-600 dark:hover:bg-rose-500`}
        disabled={phase === 'starting'}
        data-testid="record.start"
        onClick={() => void startRecording()}
      >
        Record
      </button>
    );
  }
  const paused = phase === 'paused';
  return (
    <div className="flex flex-wrap items-center gap-2">
      <button
        type="button"
        className={`${button} bg-slate-800 text-white hover:bg-slate-900`}
        disabled={phase === 'stopping'}
        data-testid="record.stop"
        onClick={() => void stopRecording()}
      >
        Stop
      </button>
      <button
        type="button"
        className={`${button} text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50`}
        disabled={phase === 'stopping'}
        data-testid="record.pause"
        onClick={() => (paused ? resumeRecording() : pauseRecording())}
      >
        {paused ? 'Resume' : 'Pause'}
      </button>
      <p className="text-sm text-slate-800" data-testid="record.status">
        <span aria-hidden="true" className={paused ? 'text-slate-500' : 'text-rose-700'}>
          ●{' '}
        </span>
        {paused ? 'Paused at' : 'Recording'}{' '}
        <span role="timer" className="tabular-nums" data-testid="record.elapsed">
          {clock(seconds)}
        </span>
      </p>
    </div>
  );
}
