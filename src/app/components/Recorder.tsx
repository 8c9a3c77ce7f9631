import { channelNames } from '../lib/recording/recording-source';
import { useAppStore } from '../store/app-store';
import { downloadLastRecording } from '../store/recording-actions';
import { LevelMeter } from './LevelMeter';
import { LiveTranscript } from './LiveTranscript';
import { MicrophonePicker } from './MicrophonePicker';
import { RecordingControls } from './RecordingControls';
import { RecordingSourcePicker } from './RecordingSourcePicker';
import { StoredRecordings } from './StoredRecordings';

/** Recording in the page: the source, the controls, its levels, live captions, kept recordings. */
export function Recorder() {
  const source = useAppStore((s) => s.recordingSource);
  const phase = useAppStore((s) => s.recordingPhase);
  const levels = useAppStore((s) => s.levels);
  const problem = useAppStore((s) => s.recordingProblem);
  const hasRecording = useAppStore((s) => s.lastRecording !== null);
  const captions = useAppStore((s) => s.captions);
  const captionsShown = useAppStore((s) => s.captionsShown);
  const captionsProblem = useAppStore((s) => s.captionsProblem);
  const names = channelNames(source);
  const active = phase === 'recording' || phase === 'paused' || phase === 'stopping';
  return (
    <div className="space-y-3" data-testid="record.panel">
      <RecordingSourcePicker />
      {source !== 'tab' && <MicrophonePicker />}
      <RecordingControls />
      {active &&
        names.map((name, i) => <LevelMeter key={name} name={name} level={levels[i] ?? 0} />)}
      {problem && (
        <p role="alert" className="text-sm text-rose-800" data-testid="record.problem">
          {problem}
        </p>
      )}
      {hasRecording && phase === 'idle' && (
        <button
          type="button"
          className="rounded-lg px-3 py-1.5 text-sm font-medium text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50"
          data-testid="record.download"
          onClick={downloadLastRecording}
        >
          Download recording (WAV)
        </button>
      )}
      {captionsShown && (
        <LiveTranscript
          captions={captions}
          channelNames={names.length > 1 ? names : null}
          problem={captionsProblem}
        />
      )}
      <StoredRecordings />
    </div>
  );
}
