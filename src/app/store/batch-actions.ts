import { parseRequest } from '../../core/contract/parse-request';
import { toServiceError } from '../../core/contract/errors';
import { toFormData, type FormValues } from '../lib/form-fields';
import { advanceProgress } from '../lib/progress';
import { userError } from '../lib/user-wording';
import { useAppStore } from './app-store';
import { looksLikeVideo } from './form-slice';
import { addToHistory, openHistoryEntry } from './history-actions';
import { baseName, getClient } from './transcribe-actions';
import { recogniseSpeakersFound } from './voice-actions';
import { namedEdits } from '../lib/result-voices';
import type { SpeakerVoice } from '../../core/voices/voice';

/** The file being transcribed and the way to stop it. */
let current: { id: string; controller: AbortController } | null = null;

/** The form's values with one file of the batch in place of the form's own. */
function valuesFor(file: File, values: FormValues): FormValues {
  return { ...values, file, url: '', endpoint: looksLikeVideo(file) ? 'video' : 'audio' };
}

/**
 * Checks the options once for the whole batch (they are the same for every file), showing any
 * problem beside its field. True when the batch can start.
 */
export function checkBatchOptions(): boolean {
  const store = useAppStore.getState();
  const first = store.batch[0];
  if (!first) return false;
  const values = valuesFor(first.file, store.values);
  const parsed = parseRequest(toFormData(values), values.endpoint);
  store.setProblems(parsed.ok ? [] : parsed.problems);
  return parsed.ok;
}

/**
 * Transcribes the queued files one after another (one model in memory, one worker) with the
 * form's options; each result goes into the history as soon as it is done.
 */
export async function runBatch(): Promise<void> {
  if (useAppStore.getState().batchActive || !checkBatchOptions()) return;
  useAppStore.setState({ batchActive: true });
  getClient().configure(useAppStore.getState().settings);
  try {
    for (;;) {
      const item = useAppStore.getState().batch.find((i) => i.status === 'queued');
      if (!item) break;
      const store = useAppStore.getState();
      const values = valuesFor(item.file, store.values);
      const controller = new AbortController();
      current = { id: item.id, controller };
      store.updateBatchItem(item.id, { status: 'running', progress: null, error: null });
      try {
        let speakers: SpeakerVoice[] = [];
        const result = await getClient().transcribe(values.endpoint, toFormData(values), {
          signal: controller.signal,
          onSpeakers: (found) => (speakers = found),
          onProgress: (report) => {
            const state = useAppStore.getState();
            const shown = state.batch.find((i) => i.id === item.id)?.progress;
            state.updateBatchItem(item.id, {
              progress: advanceProgress(shown ?? null, report, state.settings),
            });
          },
        });
        // Kept with the names stored voices are sure of, as the result shown at once is.
        const voices = speakers.length > 0 ? await recogniseSpeakersFound(speakers) : undefined;
        const edits = voices
          ? namedEdits(result.prediction_raw.transcription, voices.recognitions)
          : undefined;
        const entry = await addToHistory(result, baseName(values), values, undefined, {
          ...(voices ? { voices } : {}),
          ...(edits ? { edits } : {}),
        });
        useAppStore.getState().updateBatchItem(item.id, { status: 'done', entryId: entry.id });
        // The first result is shown at once; the others wait in the queue and the history.
        if (!useAppStore.getState().result) await openHistoryEntry(entry.id);
      } catch (thrown) {
        const error = toServiceError(thrown);
        useAppStore.getState().updateBatchItem(
          item.id,
          error.code === 'cancelled'
            ? { status: 'cancelled', progress: null }
            : {
                status: 'failed',
                progress: null,
                error: userError(error.message, error.problems, values),
              },
        );
      }
    }
  } finally {
    current = null;
    useAppStore.setState({ batchActive: false });
  }
}

/** Stops one file: the running one is aborted, a queued one never starts. */
export function cancelBatchItem(id: string): void {
  if (current?.id === id) {
    current.controller.abort();
    return;
  }
  const item = useAppStore.getState().batch.find((i) => i.id === id);
  if (item?.status === 'queued') {
    useAppStore.getState().updateBatchItem(id, { status: 'cancelled' });
  }
}

/** Stops the whole batch: nothing queued starts, the running file is aborted. */
export function cancelBatch(): void {
  for (const item of useAppStore.getState().batch) {
    if (item.status === 'queued') {
      useAppStore.getState().updateBatchItem(item.id, { status: 'cancelled' });
    }
  }
  current?.controller.abort();
}
