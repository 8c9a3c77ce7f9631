import { create } from 'zustand';
import { createEditorSlice, type EditorSlice } from './editor-slice';
import { createBatchSlice, type BatchSlice } from './batch-slice';
import { createModelsSlice, type ModelsSlice } from './models-slice';
import { createHistorySlice, type HistorySlice } from './history-slice';
import { createFormSlice, type FormSlice } from './form-slice';
import { createJobSlice, type JobSlice } from './job-slice';
import { createSettingsSlice, type SettingsSlice } from './settings-slice';
import { createTermsSlice, type TermsSlice } from './terms-slice';
import { createWebhookSlice, type WebhookSlice } from './webhook-slice';
import { createRecordingSlice, type RecordingSlice } from './recording-slice';
import { createLiveCaptionsSlice, type LiveCaptionsSlice } from './live-captions-slice';
import { createVoicesSlice, type VoicesSlice } from './voices-slice';

export type AppState = FormSlice &
  JobSlice &
  SettingsSlice &
  EditorSlice &
  WebhookSlice &
  HistorySlice &
  BatchSlice &
  ModelsSlice &
  TermsSlice &
  RecordingSlice &
  LiveCaptionsSlice &
  VoicesSlice;

export const useAppStore = create<AppState>()((...a) => ({
  ...createFormSlice(...a),
  ...createJobSlice(...a),
  ...createSettingsSlice(...a),
  ...createWebhookSlice(...a),
  ...createEditorSlice(...a),
  ...createHistorySlice(...a),
  ...createBatchSlice(...a),
  ...createModelsSlice(...a),
  ...createTermsSlice(...a),
  ...createRecordingSlice(...a),
  ...createLiveCaptionsSlice(...a),
  ...createVoicesSlice(...a),
}));
