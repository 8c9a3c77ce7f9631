import type { StateCreator } from 'zustand';
import {
  applyCaptionUpdate,
  NO_CAPTIONS,
  type CaptionUpdate,
  type LiveCaptions,
} from '../../core/live/captions';
import type { AppState } from './app-store';

export interface LiveCaptionsSlice {
  captions: LiveCaptions;
  /** Why the live captions stopped (the recording goes on). */
  captionsProblem: string | null;
  /** Whether captions are shown: from Record until the final transcript replaces them. */
  captionsShown: boolean;
  receiveCaptions: (update: CaptionUpdate) => void;
  startCaptions: () => void;
  failCaptions: (problem: string) => void;
  hideCaptions: () => void;
}

export const createLiveCaptionsSlice: StateCreator<AppState, [], [], LiveCaptionsSlice> = (
  set,
) => ({
  captions: NO_CAPTIONS,
  captionsProblem: null,
  captionsShown: false,
  receiveCaptions: (update) => set((s) => ({ captions: applyCaptionUpdate(s.captions, update) })),
  startCaptions: () => set({ captions: NO_CAPTIONS, captionsProblem: null, captionsShown: true }),
  failCaptions: (captionsProblem) => set({ captionsProblem }),
  hideCaptions: () => set({ captions: NO_CAPTIONS, captionsShown: false, captionsProblem: null }),
});
