import { create } from 'zustand';
import { createFormSlice, type FormSlice } from './form-slice';
import { createJobSlice, type JobSlice } from './job-slice';

export type AppState = FormSlice & JobSlice;

export const useAppStore = create<AppState>()((...a) => ({
  ...createFormSlice(...a),
  ...createJobSlice(...a),
}));
