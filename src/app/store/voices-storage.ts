import { createStore, del, get, set } from 'idb-keyval';
import type { Voice } from '../../core/voices/voice';

/**
 * The voices remembered in this browser, in a store of their own (never in the history or the
 * session), kept as one list: there are few of them, and a list written whole is never half
 * written.
 */
const store = createStore('murmur-voices', 'voices');
const KEY = 'voices';

export async function readVoices(): Promise<Voice[]> {
  return (await get<Voice[]>(KEY, store)) ?? [];
}

export function writeVoices(voices: readonly Voice[]): Promise<void> {
  return voices.length === 0 ? del(KEY, store) : set(KEY, voices, store);
}
