import { clear, createStore, del, get, set, values } from 'idb-keyval';
import type { HistoryEntry } from '../lib/history-entry';

/**
 * The history in IndexedDB: entries in one store, media in another, so that listing and
 * searching read only the (small) results and never the (large) files.
 */
const entries = createStore('murmur-history', 'entries');
const media = createStore('murmur-history-media', 'media');

/** Media larger than this is not kept: copying it would take long and fill the storage. */
const MEDIA_LIMIT = 256 * 1024 * 1024;
/** Room left free beside the media, so that models and results still fit after it. */
const HEADROOM = 50 * 1024 * 1024;

export function readEntries(): Promise<HistoryEntry[]> {
  return values<HistoryEntry>(entries);
}

export function writeEntry(entry: HistoryEntry): Promise<void> {
  return set(entry.id, entry, entries);
}

export async function readMedia(id: string): Promise<File | null> {
  return (await get<File>(id, media).catch(() => undefined)) ?? null;
}

export async function deleteEntry(id: string): Promise<void> {
  await del(id, entries);
  await del(id, media);
}

export async function deleteAll(): Promise<void> {
  await clear(entries);
  await clear(media);
}

/** Keeps the media of an entry when allowed and there is room; says why not otherwise. */
export async function keepMedia(
  id: string,
  file: File | null,
  allowed: boolean,
): Promise<HistoryEntry['media']> {
  if (!file) return { kept: false, reason: 'no-file' };
  if (!allowed) return { kept: false, reason: 'not-allowed' };
  if (file.size > MEDIA_LIMIT) return { kept: false, reason: 'too-large' };
  const estimate = await navigator.storage?.estimate?.().catch(() => null);
  if (estimate?.quota !== undefined && estimate.usage !== undefined) {
    if (estimate.quota - estimate.usage < file.size + HEADROOM) {
      return { kept: false, reason: 'no-room' };
    }
  }
  try {
    await set(id, file, media);
    return { kept: true, type: file.type, size: file.size };
  } catch {
    // The browser refused (quota reached meanwhile, private browsing): the result is still kept.
    return { kept: false, reason: 'refused' };
  }
}
