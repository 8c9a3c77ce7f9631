import type { StateCreator } from 'zustand';
import type { Segment, TranscriptionResponse } from '../../core/contract/response';
import type { Progress } from '../../worker/protocol';
import type { AppState } from './app-store';

export type JobStatus = 'idle' | 'running' | 'done' | 'failed' | 'cancelled';

export interface JobError {
  code: string;
  message: string;
}

export interface JobSlice {
  status: JobStatus;
  progress: Progress | null;
  liveSegments: Segment[];
  notices: string[];
  result: TranscriptionResponse | null;
  /** Name the downloads are saved under. */
  resultName: string;
  error: JobError | null;
  showResult: (result: TranscriptionResponse, name: string) => void;
}

export const createJobSlice: StateCreator<AppState, [], [], JobSlice> = (set) => ({
  status: 'idle',
  progress: null,
  liveSegments: [],
  notices: [],
  result: null,
  resultName: 'transcript',
  error: null,
  showResult: (result, name) =>
    set({
      status: 'done',
      result,
      resultName: name,
      error: null,
      progress: null,
      liveSegments: [],
    }),
});
