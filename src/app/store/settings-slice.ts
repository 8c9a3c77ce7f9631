import type { StateCreator } from 'zustand';
import { DEFAULT_TRANSLATION_MODEL, DEFAULT_WHISPER, HUB } from '../../core/model-catalog';
import type { EngineSettings } from '../../worker/protocol';
import type { AppState } from './app-store';

const STORAGE_KEY = 'murmur.settings';

export const DEFAULT_SETTINGS: EngineSettings = {
  modelHost: HUB,
  whisperModel: DEFAULT_WHISPER,
  useGpu: true,
  translationModel: DEFAULT_TRANSLATION_MODEL,
};

function stored(): EngineSettings {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as Partial<EngineSettings>;
    return { ...DEFAULT_SETTINGS, ...saved };
  } catch {
    return DEFAULT_SETTINGS;
  }
}

export interface SettingsSlice {
  settings: EngineSettings;
  setSetting: <K extends keyof EngineSettings>(key: K, value: EngineSettings[K]) => void;
}

/** Model choice and model host, kept across visits. */
export const createSettingsSlice: StateCreator<AppState, [], [], SettingsSlice> = (set) => ({
  settings: stored(),
  setSetting: (key, value) =>
    set((state) => {
      const settings = { ...state.settings, [key]: value };
      try {
        localStorage.setItem(STORAGE_KEY, JSON.stringify(settings));
      } catch {
        // Private browsing may refuse storage; the setting still holds for this visit.
      }
      return { settings };
    }),
});
