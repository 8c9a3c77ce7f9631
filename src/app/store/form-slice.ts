import type { StateCreator } from 'zustand';
import type { FieldProblem } from '../../core/contract/errors';
import { DEFAULT_VALUES, formFieldOf, type FormValues } from '../lib/form-fields';
import { storedTerms, termsHint, termsProblem } from '../lib/terms';
import type { AppState } from './app-store';

export interface FormSlice {
  values: FormValues;
  /** Problems by form field, from the last submit; cleared field by field as the user edits. */
  problems: Record<string, string[]>;
  setValue: <K extends keyof FormValues>(key: K, value: FormValues[K]) => void;
  setFile: (file: File | null) => void;
  setProblems: (problems: readonly FieldProblem[]) => void;
}

const VIDEO_EXTENSIONS = /\.(mp4|m4v|mov|mkv|webm|avi|wmv|flv|3gp)$/i;

export function looksLikeVideo(file: File): boolean {
  return file.type.startsWith('video/') || VIDEO_EXTENSIONS.test(file.name);
}

/** The form as a visit starts: the saved terms shown as the vocabulary hint. */
function startingValues(): FormValues {
  const terms = storedTerms();
  if (termsProblem(terms)) return DEFAULT_VALUES;
  return { ...DEFAULT_VALUES, transcription_hint: termsHint(terms) };
}

export const createFormSlice: StateCreator<AppState, [], [], FormSlice> = (set) => ({
  values: startingValues(),
  problems: {},
  setValue: (key, value) =>
    set((state) => {
      const problems = { ...state.problems };
      delete problems[formFieldOf(key)];
      return { values: { ...state.values, [key]: value }, problems };
    }),
  setFile: (file) =>
    set((state) => {
      const problems = { ...state.problems };
      delete problems.file;
      const endpoint = file ? (looksLikeVideo(file) ? 'video' : 'audio') : state.values.endpoint;
      return { values: { ...state.values, file, endpoint }, problems };
    }),
  setProblems: (list) => {
    const problems: Record<string, string[]> = {};
    for (const p of list) (problems[formFieldOf(p.field)] ??= []).push(p.message);
    set({ problems });
  },
});
