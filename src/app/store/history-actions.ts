import type { TranscriptionResponse } from '../../core/contract/response';
import type { FormValues } from '../lib/form-fields';
import { requestOptions, type HistoryEntry } from '../lib/history-entry';
import { useAppStore } from './app-store';
import {
  deleteAll,
  deleteEntry,
  keepMedia,
  readEntries,
  readMedia,
  writeEntry,
} from './history-storage';
import { closeResult } from './session-persistence';

/** Reads how much the site stores and may store, for the history and the Models settings. */
export async function refreshEstimate(): Promise<void> {
  const estimate = await navigator.storage?.estimate?.().catch(() => null);
  if (estimate?.usage === undefined || estimate.quota === undefined) return;
  useAppStore.setState({ storageEstimate: { usage: estimate.usage, quota: estimate.quota } });
}

/** Reads the history kept by earlier visits. */
export async function loadHistory(): Promise<void> {
  const entries = await readEntries().catch(() => []);
  useAppStore.setState({ historyEntries: entries });
  await refreshEstimate();
}

function newId(): string {
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Keeps a finished transcription (and its media, when allowed and there is room). */
export async function addToHistory(
  response: TranscriptionResponse,
  name: string,
  values: FormValues,
): Promise<HistoryEntry> {
  const id = newId();
  const file = values.file;
  const entry: HistoryEntry = {
    id,
    finishedAt: Date.now(),
    name,
    fileName: file?.name ?? values.url,
    fileSize: file?.size ?? null,
    duration: response.prediction_raw.metadata.provided_file_metadata.duration,
    options: requestOptions(values),
    response,
    media: await keepMedia(id, file, useAppStore.getState().keepHistoryMedia),
  };
  // Shown at once; kept for later visits when the browser lets it be stored.
  useAppStore.setState((s) => ({
    historyEntries: [...s.historyEntries, entry],
    ...(s.result === response ? { resultEntryId: id } : {}),
  }));
  await writeEntry(entry).catch(() => undefined);
  await refreshEstimate();
  return entry;
}

/** Shows a kept transcription with its player (when its media was kept). */
export async function openHistoryEntry(id: string): Promise<void> {
  const entry = useAppStore.getState().historyEntries.find((e) => e.id === id);
  if (!entry) return;
  const media = entry.media.kept ? await readMedia(id) : null;
  useAppStore.getState().showResult(entry.response, entry.name, media);
  useAppStore.setState({ resultEntryId: id });
  document.getElementById('result')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}

/**
 * Deletes one entry with its media; the entry shown is closed, so nothing of it remains. The
 * page drops the entry once the storage has, so that what it shows is what a reload finds.
 */
export async function removeHistoryEntry(id: string): Promise<void> {
  if (useAppStore.getState().resultEntryId === id) await closeResult();
  await deleteEntry(id).catch(() => undefined);
  useAppStore.setState((s) => ({ historyEntries: s.historyEntries.filter((e) => e.id !== id) }));
  await refreshEstimate();
}

/** Deletes every entry with its media, and closes the shown result when it is one of them. */
export async function clearHistory(): Promise<void> {
  if (useAppStore.getState().resultEntryId !== null) await closeResult();
  await deleteAll().catch(() => undefined);
  useAppStore.setState({ historyEntries: [] });
  await refreshEstimate();
}
