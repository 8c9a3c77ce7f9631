import type { StateCreator } from 'zustand';
import type { RecordingMeta } from '../lib/recording/recording-storage';
import type { RecordingSource } from '../lib/recording/recording-source';
import type { AppState } from './app-store';

export type RecordingPhase = 'idle' | 'starting' | 'recording' | 'paused' | 'stopping';

export interface RecordingSlice {
  recordingPhase: RecordingPhase;
  recordingSource: RecordingSource;
  /** The chosen microphone (null: the browser's default). */
  microphoneId: string | null;
  microphones: { id: string; label: string }[];
  /** Each channel's latest peak level, 0 to 1. */
  levels: number[];
  /** Seconds recorded (pauses left out). */
  recordedSeconds: number;
  /** Why recording could not start or stopped early; kept until the next Record. */
  recordingProblem: string | null;
  /** The last recording made in this visit, for its download. */
  lastRecording: File | null;
  /** Recordings kept from earlier visits (or not yet transcribed), offered back. */
  storedRecordings: RecordingMeta[];
  setRecordingSource: (source: RecordingSource) => void;
  setMicrophoneId: (id: string | null) => void;
}

export const createRecordingSlice: StateCreator<AppState, [], [], RecordingSlice> = (set) => ({
  recordingPhase: 'idle',
  recordingSource: 'microphone',
  microphoneId: null,
  microphones: [],
  levels: [],
  recordedSeconds: 0,
  recordingProblem: null,
  lastRecording: null,
  storedRecordings: [],
  setRecordingSource: (recordingSource) => set({ recordingSource }),
  setMicrophoneId: (microphoneId) => set({ microphoneId }),
});
