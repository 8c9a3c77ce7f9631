import type { StateCreator } from 'zustand';
import { saveTerms, storedTerms, termsHint, termsProblem } from '../lib/terms';
import type { AppState } from './app-store';

export interface TermsSlice {
  /** The term list as typed, one a line. */
  terms: string;
  /** Why the terms typed are refused (too long for the hint), or null. */
  termsProblem: string | null;
  /**
   * Keeps the terms (when they fit the hint) and, where the user has not typed a hint of their
   * own for this request, shows them as the form's vocabulary hint.
   */
  setTerms: (terms: string) => void;
}

export const createTermsSlice: StateCreator<AppState, [], [], TermsSlice> = (set) => ({
  terms: storedTerms(),
  termsProblem: null,
  setTerms: (terms) =>
    set((state) => {
      const problem = termsProblem(terms);
      if (problem) return { terms, termsProblem: problem };
      saveTerms(terms);
      const hint = state.values.transcription_hint;
      const ours = hint.trim() === '' || hint === termsHint(state.terms);
      return {
        terms,
        termsProblem: null,
        values: ours ? { ...state.values, transcription_hint: termsHint(terms) } : state.values,
      };
    }),
});
