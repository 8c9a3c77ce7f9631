import type { StateCreator } from 'zustand';
import type { ManagedRole } from '../lib/managed-models';
import type { RuntimeName, RuntimeProgress } from '../../worker/runtimes';
import type { AppState } from './app-store';

/** What the Models settings know of one model in this browser. */
export interface ModelState {
  /** Bytes kept in this browser; null until looked up. */
  cachedBytes: number | null;
  /** What the model's files weigh on the host, for a model the catalogue has no size for. */
  hostedBytes: number | null;
  /** Download progress (0..1, or null when the host gives no size) while downloading. */
  downloading: { fraction: number | null; detail: string } | null;
  error: string | null;
}

/** Make available offline: what it is doing, and how it ended. */
export interface OfflineState {
  running: boolean;
  /** The optional models the person chose to keep as well. */
  translation: boolean;
  speakers: boolean;
  /** Set once everything chosen is kept in this browser. */
  done: boolean;
  error: string | null;
}

export interface ModelsSlice {
  models: Record<ManagedRole, ModelState>;
  /** The runtimes being fetched, and how far each has come. */
  runtimes: Partial<Record<RuntimeName, RuntimeProgress>>;
  offline: OfflineState;
  setRuntimeProgress: (progress: RuntimeProgress) => void;
  setOffline: (change: Partial<OfflineState>) => void;
  /** Whether the browser promised to keep the site's storage (null: not asked or unknown). */
  persisted: boolean | null;
  setModelState: (role: ManagedRole, change: Partial<ModelState>) => void;
}

const unknown: ModelState = {
  cachedBytes: null,
  hostedBytes: null,
  downloading: null,
  error: null,
};

export const createModelsSlice: StateCreator<AppState, [], [], ModelsSlice> = (set) => ({
  models: {
    recognition: unknown,
    vad: unknown,
    translation: unknown,
    segmentation: unknown,
    embedding: unknown,
  },
  persisted: null,
  runtimes: {},
  offline: { running: false, translation: false, speakers: false, done: false, error: null },
  setRuntimeProgress: (progress) =>
    set((state) => {
      const runtimes = { ...state.runtimes };
      // A runtime fully arrived is no longer shown.
      if (progress.received >= progress.total) delete runtimes[progress.runtime];
      else runtimes[progress.runtime] = progress;
      return { runtimes };
    }),
  setOffline: (change) => set((state) => ({ offline: { ...state.offline, ...change } })),
  setModelState: (role, change) =>
    set((state) => ({ models: { ...state.models, [role]: { ...state.models[role], ...change } } })),
});
