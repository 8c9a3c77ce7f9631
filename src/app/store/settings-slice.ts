import type { StateCreator } from 'zustand';
import {
  DEFAULT_EMBEDDING_MODEL,
  DEFAULT_SEGMENTATION_MODEL,
  DEFAULT_TRANSLATION_MODEL,
  DEFAULT_WHISPER,
  HUB,
} from '../../core/model-catalog';
import type { EngineSettings } from '../../worker/protocol';
import { addressWithoutSettings, settingsFromLink } from '../lib/settings-link';
import type { AppState } from './app-store';

const STORAGE_KEY = 'murmur.settings';

export const DEFAULT_SETTINGS: EngineSettings = {
  modelHost: HUB,
  whisperModel: DEFAULT_WHISPER,
  useGpu: true,
  translationModel: DEFAULT_TRANSLATION_MODEL,
  segmentationModel: DEFAULT_SEGMENTATION_MODEL,
  embeddingModel: DEFAULT_EMBEDDING_MODEL,
};

function save(settings: EngineSettings): void {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(settings));
  } catch {
    // Private browsing may refuse storage; the setting still holds for this visit.
  }
}

/** The saved settings with what the page's link sets, read without keeping anything. */
export function settingsInUse(): EngineSettings {
  let saved: Partial<EngineSettings> = {};
  try {
    saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}') as Partial<EngineSettings>;
  } catch {
    // Unreadable or refused storage: the defaults.
  }
  const linked = typeof location === 'undefined' ? {} : settingsFromLink(location.search);
  return { ...DEFAULT_SETTINGS, ...saved, ...linked };
}

/**
 * The saved settings, with what the page's link sets (`?models=…&model=…`) taking precedence
 * and kept, so the shared mirror stays chosen on later visits without the link; the address
 * then loses those parameters.
 */
function stored(): EngineSettings {
  const linked = typeof location === 'undefined' ? {} : settingsFromLink(location.search);
  const settings = settingsInUse();
  if (Object.keys(linked).length > 0) {
    save(settings);
    // Saved, the settings need not stay in the address: a reload or a bookmark then opens the
    // app itself, which the installed app also has offline.
    history.replaceState(history.state, '', addressWithoutSettings(location.href));
  }
  return settings;
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
      save(settings);
      return { settings };
    }),
});
