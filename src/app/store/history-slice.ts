import type { StateCreator } from 'zustand';
import type { HistoryEntry } from '../lib/history-entry';
import type { AppState } from './app-store';

const KEEP_MEDIA_KEY = 'murmur.history-media';

function storedKeepMedia(): boolean {
  try {
    return localStorage.getItem(KEEP_MEDIA_KEY) !== 'false';
  } catch {
    return true;
  }
}

export interface HistorySlice {
  /** Finished transcriptions kept in IndexedDB, in no particular order (sorted when shown). */
  historyEntries: HistoryEntry[];
  historyQuery: string;
  /** Whether each transcription's media is kept beside it (the user may turn it off). */
  keepHistoryMedia: boolean;
  /** The whole site's storage use and quota, from the browser, when it says. */
  storageEstimate: { usage: number; quota: number } | null;
  setHistoryQuery: (query: string) => void;
  setKeepHistoryMedia: (keep: boolean) => void;
}

export const createHistorySlice: StateCreator<AppState, [], [], HistorySlice> = (set) => ({
  historyEntries: [],
  historyQuery: '',
  keepHistoryMedia: storedKeepMedia(),
  storageEstimate: null,
  setHistoryQuery: (historyQuery) => set({ historyQuery }),
  setKeepHistoryMedia: (keep) => {
    try {
      localStorage.setItem(KEEP_MEDIA_KEY, String(keep));
    } catch {
      // Private browsing may refuse storage; the choice still holds for this visit.
    }
    set({ keepHistoryMedia: keep });
  },
});
