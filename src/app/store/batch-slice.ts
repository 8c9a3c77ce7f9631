import type { StateCreator } from 'zustand';
import type { ShownProgress } from '../lib/progress';
import type { AppState } from './app-store';

export type BatchStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/** One file of a batch: its place in the queue, its progress, and where its result went. */
export interface BatchItem {
  id: string;
  file: File;
  status: BatchStatus;
  progress: ShownProgress | null;
  /** The history entry holding the result, once done. */
  entryId: string | null;
  error: string | null;
}

export interface BatchSlice {
  /** Files transcribed one after another with the form's options (empty: one file at a time). */
  batch: BatchItem[];
  /** True from the start of a batch until its last file is done or cancelled. */
  batchActive: boolean;
  addBatchFiles: (files: readonly File[]) => void;
  /** Takes a file that has not started out of the queue. */
  removeBatchItem: (id: string) => void;
  updateBatchItem: (id: string, change: Partial<BatchItem>) => void;
  clearBatch: () => void;
}

let next = 0;

export const createBatchSlice: StateCreator<AppState, [], [], BatchSlice> = (set) => ({
  batch: [],
  batchActive: false,
  addBatchFiles: (files) =>
    set((state) => ({
      batch: [
        ...state.batch,
        ...files.map((file) => ({
          id: `file-${(next += 1)}`,
          file,
          status: 'queued' as const,
          progress: null,
          entryId: null,
          error: null,
        })),
      ],
    })),
  removeBatchItem: (id) => set((state) => ({ batch: state.batch.filter((i) => i.id !== id) })),
  updateBatchItem: (id, change) =>
    set((state) => ({ batch: state.batch.map((i) => (i.id === id ? { ...i, ...change } : i)) })),
  clearBatch: () => set((state) => ({ batch: state.batch.filter((i) => i.status === 'running') })),
});
