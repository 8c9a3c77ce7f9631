import type { StateCreator } from 'zustand';
import type { ProvisionalSegment } from '../../core/assemble/provisional-segment';
import type { Segment, TranscriptionResponse } from '../../core/contract/response';
import type { ShownProgress } from '../lib/progress';
import { NO_NAMES } from '../../core/edit/speaker-names';
import type { AppState } from './app-store';
import type { EditorVersion } from './editor-slice';

export type JobStatus = 'idle' | 'running' | 'done' | 'failed' | 'cancelled';

export interface JobError {
  code: string;
  message: string;
  /** The fields the service named, for the page to say in its own words. */
  problems: { field: string; message: string }[];
}

export interface JobSlice {
  status: JobStatus;
  progress: ShownProgress | null;
  liveSegments: Segment[];
  /** The window being decoded, before its checks: shown after the segments, replaced by them. */
  provisionalSegments: ProvisionalSegment[];
  notices: string[];
  /** Where the recogniser ran ('webgpu' or 'wasm'), once known. */
  device: string | null;
  result: TranscriptionResponse | null;
  /** Name the downloads are saved under. */
  resultName: string;
  /** The media the result belongs to, for playback (null for a reopened saved result). */
  resultMedia: File | null;
  /** The history entry the shown result is kept as, so that deleting that entry closes it. */
  resultEntryId: string | null;
  /** Where the player should jump to (seconds), set when a segment is chosen. */
  seekRequest: { time: number; at: number } | null;
  seekTo: (time: number) => void;
  error: JobError | null;
  /** The Network note of the shown result (null where none was made: a saved result). */
  network: string | null;
  /**
   * Shows a result; `history` (corrections made earlier, restored after a reload) starts the
   * editor's undo stack, the result's own segments otherwise.
   */
  showResult: (
    result: TranscriptionResponse,
    name: string,
    media?: File | null,
    history?: { history: EditorVersion[]; historyIndex: number },
  ) => void;
}

export const createJobSlice: StateCreator<AppState, [], [], JobSlice> = (set) => ({
  status: 'idle',
  progress: null,
  liveSegments: [],
  provisionalSegments: [],
  notices: [],
  device: null,
  result: null,
  resultName: 'transcript',
  resultMedia: null,
  resultEntryId: null,
  seekRequest: null,
  error: null,
  network: null,
  seekTo: (time) => set({ seekRequest: { time, at: Date.now() } }),
  showResult: (result, name, media = null, history) =>
    set({
      history: history?.history ?? [
        { segments: result.prediction_raw.transcription, names: NO_NAMES },
      ],
      historyIndex: history?.historyIndex ?? 0,
      playhead: 0,
      // A word chosen in the result before must not play the new one when its player appears.
      seekRequest: null,
      status: 'done',
      result,
      // A result's speakers come with it where it has them (set by whoever shows it).
      resultVoices: null,
      resultName: name,
      resultMedia: media,
      resultEntryId: null,
      error: null,
      network: null,
      progress: null,
      liveSegments: [],
      provisionalSegments: [],
    }),
});
