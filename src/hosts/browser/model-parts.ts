import { createStore, del, delMany, get, getMany, set, type UseStore } from 'idb-keyval';
import type { FileIdentity } from '../../core/download/file-identity';
import type { PartStore } from '../../engine/ports';

interface PartRecord {
  identity: FileIdentity;
  /** The lengths of the pieces written so far, in order. */
  pieces: number[];
}

const metaKey = (url: string) => `part:${url}`;
const pieceKey = (url: string, index: number) => `piece:${index}:${url}`;

let store: UseStore | null = null;

/**
 * Parts of model files in IndexedDB, a record and its pieces a URL: apart from the Cache
 * Storage that whole models are read from, so that a part survives a reload and is never taken
 * for a model. A piece is written before the record that counts it, so a page closed between
 * the two keeps the part as it was.
 */
export function browserPartStore(): PartStore {
  store ??= createStore('murmur-model-parts', 'parts');
  const db = store;
  const record = (url: string) => get<PartRecord>(metaKey(url), db);
  const pieceKeys = (url: string, count: number) =>
    Array.from({ length: count }, (_, i) => pieceKey(url, i));
  return {
    async read(url) {
      const meta = await record(url);
      if (!meta) return null;
      const pieces = await getMany<Uint8Array>(pieceKeys(url, meta.pieces.length), db);
      const length = meta.pieces.reduce((a, b) => a + b, 0);
      const bytes = new Uint8Array(length);
      let at = 0;
      for (const [i, piece] of pieces.entries()) {
        if (!(piece instanceof Uint8Array) || piece.length !== meta.pieces[i]) return null;
        bytes.set(piece, at);
        at += piece.length;
      }
      return { identity: meta.identity, bytes };
    },
    async append(url, identity, offset, bytes) {
      const meta = offset === 0 ? null : await record(url);
      if (offset !== 0 && meta?.pieces.reduce((a, b) => a + b, 0) !== offset) {
        throw new Error(`The kept part of ${url} does not end at byte ${offset}.`);
      }
      const pieces = meta?.pieces ?? [];
      if (offset === 0) await this.drop(url);
      await set(pieceKey(url, pieces.length), bytes, db);
      await set(metaKey(url), { identity, pieces: [...pieces, bytes.length] }, db);
    },
    async drop(url) {
      const meta = await record(url);
      await del(metaKey(url), db);
      if (meta) await delMany(pieceKeys(url, meta.pieces.length), db);
    },
  };
}
