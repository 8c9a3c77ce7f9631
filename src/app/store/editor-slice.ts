import type { StateCreator } from 'zustand';
import type { Segment } from '../../core/contract/response';
import { DEFAULT_CUE_LIMITS, type CueLimits } from '../../core/format/readable-cues';
import type { AppState } from './app-store';

const LIMITS_KEY = 'murmur.cues';
const SHORTCUTS_KEY = 'murmur.single-key-shortcuts';
/** Enough to step back through a long session of corrections without holding every one. */
const HISTORY_LIMIT = 200;

function storedLimits(): CueLimits {
  try {
    const saved = JSON.parse(localStorage.getItem(LIMITS_KEY) ?? '{}') as Partial<CueLimits>;
    return { ...DEFAULT_CUE_LIMITS, ...saved };
  } catch {
    return DEFAULT_CUE_LIMITS;
  }
}

function readFlag(key: string, fallback: boolean): boolean {
  try {
    const saved = localStorage.getItem(key);
    return saved === null ? fallback : saved === 'true';
  } catch {
    return fallback;
  }
}

function writeFlag(key: string, on: boolean): void {
  try {
    localStorage.setItem(key, String(on));
  } catch {
    // Storage refused (private browsing): the choice still holds for this visit.
  }
}

export interface EditorSlice {
  /** Versions of the result's segments, oldest first; `historyIndex` is the one shown. */
  history: Segment[][];
  historyIndex: number;
  /** Where playback is, in seconds, for the word highlight. */
  playhead: number;
  cueLimits: CueLimits;
  /**
   * Whether single keys (K, J, L, [, ]) steer playback. They can be turned off for speech
   * input and screen-reader users, whose keystrokes they would catch (WCAG 2.1.4).
   */
  singleKeyShortcuts: boolean;
  setSingleKeyShortcuts: (on: boolean) => void;
  /** Applies a correction (a pure function of the segments) as one undoable step. */
  edit: (change: (segments: readonly Segment[]) => Segment[]) => void;
  undo: () => void;
  redo: () => void;
  setPlayhead: (seconds: number) => void;
  setCueLimit: <K extends keyof CueLimits>(key: K, value: CueLimits[K]) => void;
}

export const createEditorSlice: StateCreator<AppState, [], [], EditorSlice> = (set) => ({
  history: [],
  historyIndex: 0,
  playhead: 0,
  cueLimits: storedLimits(),
  singleKeyShortcuts: readFlag(SHORTCUTS_KEY, true),
  setSingleKeyShortcuts: (on) => {
    writeFlag(SHORTCUTS_KEY, on);
    set({ singleKeyShortcuts: on });
  },
  edit: (change) =>
    set((state) => {
      const current = state.history[state.historyIndex];
      if (!current) return {};
      const next = change(current);
      const kept = state.history.slice(0, state.historyIndex + 1);
      const history = [...kept, next].slice(-HISTORY_LIMIT);
      return { history, historyIndex: history.length - 1 };
    }),
  undo: () => set((state) => ({ historyIndex: Math.max(0, state.historyIndex - 1) })),
  redo: () =>
    set((state) => ({
      historyIndex: Math.min(state.history.length - 1, state.historyIndex + 1),
    })),
  setPlayhead: (playhead) => set({ playhead }),
  setCueLimit: (key, value) =>
    set((state) => {
      const cueLimits = { ...state.cueLimits, [key]: value };
      try {
        localStorage.setItem(LIMITS_KEY, JSON.stringify(cueLimits));
      } catch {
        // Storage refused (private browsing): the limit still holds for this visit.
      }
      return { cueLimits };
    }),
});

/** The segments as corrected so far (null before a result). */
export function currentSegments(state: AppState): Segment[] | null {
  return state.result ? (state.history[state.historyIndex] ?? null) : null;
}
