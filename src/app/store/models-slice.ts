import type { StateCreator } from 'zustand';
import type { ManagedRole } from '../lib/managed-models';
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

export interface ModelsSlice {
  models: Record<ManagedRole, ModelState>;
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
  setModelState: (role, change) =>
    set((state) => ({ models: { ...state.models, [role]: { ...state.models[role], ...change } } })),
});
