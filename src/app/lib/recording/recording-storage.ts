import { createStore, del, get, promisifyRequest, set, values } from 'idb-keyval';

/**
 * A recording in IndexedDB as it is made: its description in one store, its sound in another
 * as numbered blocks of interleaved 16-bit PCM, so that a reload or a crash loses at most the
 * block being gathered, and listing recordings never reads their sound.
 */
export interface RecordingMeta {
  id: string;
  /** When recording started (ms since the epoch). */
  startedAt: number;
  channels: number;
  sampleRate: number;
  /** Seconds stored so far. */
  seconds: number;
  /** Stopped by the user (or by its source ending), rather than cut short by a reload or crash. */
  finished: boolean;
}

const metas = createStore('murmur-recordings', 'recordings');
const blocks = createStore('murmur-recording-blocks', 'blocks');

/** All of one recording's blocks: keys [id, n] sort by n within an id. */
const blocksOf = (id: string) => IDBKeyRange.bound([id, 0], [id, Infinity]);

export function listRecordings(): Promise<RecordingMeta[]> {
  return values<RecordingMeta>(metas);
}

export function writeMeta(meta: RecordingMeta): Promise<void> {
  return set(meta.id, meta, metas);
}

export async function readMeta(id: string): Promise<RecordingMeta | null> {
  return (await get<RecordingMeta>(id, metas)) ?? null;
}

export function writeBlock(id: string, index: number, pcm: Int16Array): Promise<void> {
  return set([id, index], pcm, blocks);
}

export function readBlocks(id: string): Promise<Int16Array[]> {
  return blocks('readonly', (store) => promisifyRequest(store.getAll(blocksOf(id))));
}

export async function deleteRecording(id: string): Promise<void> {
  await blocks('readwrite', (store) => promisifyRequest(store.delete(blocksOf(id))));
  await del(id, metas);
}
