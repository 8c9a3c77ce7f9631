import type { StateCreator } from 'zustand';
import type { Segment } from '../../core/contract/response';
import type { FindMatch } from '../../core/edit/find-replace';
import { NO_NAMES, renameSpeaker, type SpeakerNames } from '../../core/edit/speaker-names';
import { DEFAULT_CUE_LIMITS, type CueLimits } from '../../core/format/readable-cues';
import { presetProfile, profileLimits, type ProfileId } from '../../core/subtitles/profiles';
import type { AppState } from './app-store';

const LIMITS_KEY = 'murmur.cues';
const SHORTCUTS_KEY = 'murmur.single-key-shortcuts';
const PROFILE_KEY = 'murmur.subtitle-profile';
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

function storedProfile(): ProfileId {
  try {
    const saved = localStorage.getItem(PROFILE_KEY) ?? 'custom';
    return presetProfile(saved)?.id ?? 'custom';
  } catch {
    return 'custom';
  }
}

function saveLimits(cueLimits: CueLimits, profile: ProfileId): void {
  try {
    localStorage.setItem(LIMITS_KEY, JSON.stringify(cueLimits));
    localStorage.setItem(PROFILE_KEY, profile);
  } catch {
    // Storage refused (private browsing): the limits still hold for this visit.
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

/** One step of the undo history: the segments and the names given to their speakers. */
export interface EditorVersion {
  segments: Segment[];
  names: SpeakerNames;
}

export interface EditorSlice {
  /** Versions of the result's segments, oldest first; `historyIndex` is the one shown. */
  history: EditorVersion[];
  historyIndex: number;
  /** Where playback is, in seconds, for the word highlight. */
  playhead: number;
  cueLimits: CueLimits;
  /** The profile the limits came from; `custom` once a limit is set by hand. */
  subtitleProfile: ProfileId;
  /** Counts profile choices, so that the limit fields start again from a new profile's values. */
  profileChoices: number;
  /** Takes a preset's limits (the speaker-name choice is kept); `custom` keeps the limits. */
  setSubtitleProfile: (id: ProfileId) => void;
  /**
   * Whether single keys (K, J, L, [, ]) steer playback. They can be turned off for speech
   * input and screen-reader users, whose keystrokes they would catch (WCAG 2.1.4).
   */
  singleKeyShortcuts: boolean;
  setSingleKeyShortcuts: (on: boolean) => void;
  /** Applies a correction (a pure function of the segments) as one undoable step. */
  edit: (change: (segments: readonly Segment[]) => Segment[]) => void;
  /** Gives a speaker (by label) a name, as one undoable step; an empty name removes it. */
  renameSpeaker: (label: string, name: string) => void;
  undo: () => void;
  redo: () => void;
  setPlayhead: (seconds: number) => void;
  setCueLimit: <K extends keyof CueLimits>(key: K, value: CueLimits[K]) => void;
  /** The match of find and replace being shown, highlighted in the transcript (null: none). */
  findMatch: FindMatch | null;
  setFindMatch: (match: FindMatch | null) => void;
}

/** The history with one more version after the one shown (redo steps beyond it dropped). */
function pushed(state: AppState, next: EditorVersion): Partial<AppState> {
  const kept = state.history.slice(0, state.historyIndex + 1);
  const history = [...kept, next].slice(-HISTORY_LIMIT);
  return { history, historyIndex: history.length - 1 };
}

export const createEditorSlice: StateCreator<AppState, [], [], EditorSlice> = (set) => ({
  history: [],
  historyIndex: 0,
  playhead: 0,
  cueLimits: storedLimits(),
  subtitleProfile: storedProfile(),
  profileChoices: 0,
  setSubtitleProfile: (id) =>
    set((state) => {
      const preset = presetProfile(id);
      const cueLimits = preset
        ? { ...profileLimits(preset), speakerNames: state.cueLimits.speakerNames }
        : state.cueLimits;
      saveLimits(cueLimits, id);
      return { cueLimits, subtitleProfile: id, profileChoices: state.profileChoices + 1 };
    }),
  singleKeyShortcuts: readFlag(SHORTCUTS_KEY, true),
  setSingleKeyShortcuts: (on) => {
    writeFlag(SHORTCUTS_KEY, on);
    set({ singleKeyShortcuts: on });
  },
  edit: (change) =>
    set((state) => {
      const current = state.history[state.historyIndex];
      if (!current) return {};
      return pushed(state, { segments: change(current.segments), names: current.names });
    }),
  renameSpeaker: (label, name) =>
    set((state) => {
      const current = state.history[state.historyIndex];
      if (!current) return {};
      const names = renameSpeaker(current.names, label, name);
      if ((current.names[label] ?? '') === (names[label] ?? '')) return {};
      return pushed(state, { segments: current.segments, names });
    }),
  undo: () => set((state) => ({ historyIndex: Math.max(0, state.historyIndex - 1) })),
  redo: () =>
    set((state) => ({
      historyIndex: Math.min(state.history.length - 1, state.historyIndex + 1),
    })),
  setPlayhead: (playhead) => set({ playhead }),
  findMatch: null,
  setFindMatch: (findMatch) => set({ findMatch }),
  setCueLimit: (key, value) =>
    set((state) => {
      const cueLimits = { ...state.cueLimits, [key]: value };
      if (cueLimits[key] === state.cueLimits[key]) return {};
      // A limit set by hand makes the limits the user's own.
      const subtitleProfile = key === 'speakerNames' ? state.subtitleProfile : 'custom';
      saveLimits(cueLimits, subtitleProfile);
      return { cueLimits, subtitleProfile };
    }),
});

/** The segments as corrected so far (null before a result). */
export function currentSegments(state: AppState): Segment[] | null {
  return state.result ? (state.history[state.historyIndex]?.segments ?? null) : null;
}

/** The names given to the speakers so far (none before a result). */
export function currentNames(state: AppState): SpeakerNames {
  return (state.result && state.history[state.historyIndex]?.names) || NO_NAMES;
}

/**
 * A saved undo history as this version keeps it: sessions saved before speakers could be named
 * hold bare lists of segments.
 */
export function editorVersions(saved: readonly (EditorVersion | Segment[])[]): EditorVersion[] {
  return saved.map((v) => (Array.isArray(v) ? { segments: v, names: NO_NAMES } : v));
}
