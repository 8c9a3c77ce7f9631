import type { TranscriptionResponse } from '../../core/contract/response';
import type { FormValues } from '../lib/form-fields';
import { requestOptions, type EntryEdits, type HistoryEntry } from '../lib/history-entry';
import { useAppStore } from './app-store';
import { editorVersions } from './editor-slice';
import {
  deleteAll,
  deleteEntry,
  keepMedia,
  readEntries,
  readMedia,
  writeEntry,
} from './history-storage';
import { closeResult } from './session-persistence';
import type { ResultVoices } from '../lib/result-voices';

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
  /** The result's Network note, kept with it. */
  network?: string,
  /**
   * Its speakers' embeddings and what they were recognised as, and for a result kept without
   * being shown, the names stored voices gave (as corrections).
   */
  kept: { voices?: ResultVoices; edits?: EntryEdits; device?: string | null } = {},
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
    ...(network === undefined ? {} : { network }),
    ...(kept.voices === undefined ? {} : { voices: kept.voices }),
    ...(kept.edits === undefined ? {} : { edits: kept.edits }),
    ...(kept.device ? { device: kept.device } : {}),
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

/** Undo steps kept with an entry: the latest ones, as many as a reload keeps. */
const KEPT_STEPS = 50;
/** Entries whose corrections wait for the typing to pause before they are written. */
const unwritten = new Map<string, HistoryEntry>();
let timer: ReturnType<typeof setTimeout> | undefined;

function writeCorrected(): void {
  const entries = [...unwritten.values()];
  unwritten.clear();
  for (const entry of entries) void writeEntry(entry).catch(() => undefined);
}

/**
 * Keeps the corrections of the shown result with its history entry as they are made, so that
 * reopening the entry (now, or after a reload) shows them, with their undo steps. The entry in
 * the page changes at once, so that its preview and search follow; the stored copy once the
 * corrections pause, as the session's does.
 */
export function keepCorrections(): void {
  useAppStore.subscribe((state, previous) => {
    const id = state.resultEntryId;
    if (id === null || !state.result) return;
    if (
      state.history === previous.history &&
      state.historyIndex === previous.historyIndex &&
      id === previous.resultEntryId
    ) {
      return;
    }
    const entry = state.historyEntries.find((e) => e.id === id);
    if (!entry) return;
    const first = Math.max(0, state.history.length - KEPT_STEPS);
    const edits: EntryEdits = {
      versions: state.history.slice(first),
      index: Math.max(0, state.historyIndex - first),
    };
    const same =
      entry.edits !== undefined &&
      entry.edits.index === edits.index &&
      entry.edits.versions.length === edits.versions.length &&
      entry.edits.versions.every((v, i) => v === edits.versions[i]);
    // Never corrected: the entry stays as it was written.
    const untouched = entry.edits === undefined && state.history.length === 1;
    if (same || untouched) return;
    const corrected: HistoryEntry = { ...entry, edits };
    useAppStore.setState((s) => ({
      historyEntries: s.historyEntries.map((e) => (e.id === id ? corrected : e)),
    }));
    unwritten.set(id, corrected);
    clearTimeout(timer);
    timer = setTimeout(writeCorrected, 250);
  });
  // A page closed while corrections wait still keeps them.
  window.addEventListener('pagehide', writeCorrected);
}

/**
 * Shows a kept transcription with its player (when its media was kept), as last corrected:
 * its text, its speakers' names and its undo steps.
 */
export async function openHistoryEntry(id: string): Promise<void> {
  const entry = useAppStore.getState().historyEntries.find((e) => e.id === id);
  if (!entry) return;
  const media = entry.media.kept ? await readMedia(id) : null;
  const edits = entry.edits
    ? { history: editorVersions(entry.edits.versions), historyIndex: entry.edits.index }
    : undefined;
  useAppStore.getState().showResult(entry.response, entry.name, media, edits);
  useAppStore.setState({
    resultEntryId: id,
    network: entry.network ?? null,
    device: entry.device ?? null,
    resultVoices: entry.voices ?? null,
  });
  document.getElementById('result')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
}

/**
 * Deletes one entry with its media; the entry shown is closed, so nothing of it remains. The
 * page drops the entry once the storage has, so that what it shows is what a reload finds.
 */
export async function removeHistoryEntry(id: string): Promise<void> {
  if (useAppStore.getState().resultEntryId === id) await closeResult();
  // Corrections waiting to be written must not bring the entry back.
  unwritten.delete(id);
  await deleteEntry(id).catch(() => undefined);
  useAppStore.setState((s) => ({ historyEntries: s.historyEntries.filter((e) => e.id !== id) }));
  await refreshEstimate();
}

/** Deletes every entry with its media, and closes the shown result when it is one of them. */
export async function clearHistory(): Promise<void> {
  if (useAppStore.getState().resultEntryId !== null) await closeResult();
  unwritten.clear();
  await deleteAll().catch(() => undefined);
  useAppStore.setState({ historyEntries: [] });
  await refreshEstimate();
}
