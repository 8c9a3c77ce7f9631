import type { StateCreator } from 'zustand';
import type { Voice } from '../../core/voices/voice';
import type { ResultVoices } from '../lib/result-voices';
import type { AppState } from './app-store';

export interface VoicesSlice {
  /** The voices remembered in this browser. */
  voices: Voice[];
  /** Of the shown result (null: it has no speakers, or was made before voices were kept). */
  resultVoices: ResultVoices | null;
  /** The voice deleted last and where it stood, until it is restored or another goes. */
  deletedVoice: { voice: Voice; index: number } | null;
}

export const createVoicesSlice: StateCreator<AppState, [], [], VoicesSlice> = () => ({
  voices: [],
  resultVoices: null,
  deletedVoice: null,
});
