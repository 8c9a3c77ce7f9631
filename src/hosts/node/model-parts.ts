import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileIdentity } from '../../core/download/file-identity';
import type { PartStore } from '../../engine/ports';

/** Where parts of model files are kept by default: apart from every folder models load from. */
export const DEFAULT_PARTS_FOLDER = join(tmpdir(), 'murmur-model-parts');

interface PartMeta {
  url: string;
  identity: FileIdentity;
  /** Bytes of the `.part` file that were written whole. */
  length: number;
}

/**
 * Parts of model files on disk, one `.part` file and one `.json` beside it a URL (named by its
 * hash). The JSON is written after the bytes, so a run stopped between the two keeps the length
 * that was whole and the next run reads no further than it.
 */
export function nodePartStore(folder: string = DEFAULT_PARTS_FOLDER): PartStore {
  const names = (url: string) => {
    const key = createHash('sha256').update(url).digest('hex').slice(0, 32);
    return { data: join(folder, `${key}.part`), meta: join(folder, `${key}.json`) };
  };
  const readMeta = async (url: string): Promise<PartMeta | null> => {
    try {
      const meta = JSON.parse(await readFile(names(url).meta, 'utf8')) as PartMeta;
      return meta.url === url ? meta : null;
    } catch {
      return null;
    }
  };
  return {
    async read(url) {
      const meta = await readMeta(url);
      if (meta === null) return null;
      try {
        const bytes = await readFile(names(url).data);
        if (bytes.length < meta.length) return null;
        return { identity: meta.identity, bytes: new Uint8Array(bytes.subarray(0, meta.length)) };
      } catch {
        return null;
      }
    },
    async append(url, identity, offset, bytes) {
      const { data, meta } = names(url);
      await mkdir(folder, { recursive: true });
      const known = offset === 0 ? null : await readMeta(url);
      if (offset !== 0 && known?.length !== offset) {
        throw new Error(`The kept part of ${url} does not end at byte ${offset}.`);
      }
      const handle = await open(data, offset === 0 ? 'w' : 'r+');
      try {
        await handle.write(bytes, 0, bytes.length, offset);
      } finally {
        await handle.close();
      }
      const next: PartMeta = { url, identity, length: offset + bytes.length };
      await writeFile(meta, JSON.stringify(next));
    },
    async drop(url) {
      const { data, meta } = names(url);
      await rm(meta, { force: true });
      await rm(data, { force: true });
    },
  };
}
