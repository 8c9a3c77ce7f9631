import { modelPrefix } from './managed-models';

/**
 * The Cache Storage caches models are kept in: the model runtime's own (recognition,
 * translation) and the app's (the voice activity model).
 */
const CACHES = ['transformers-cache', 'murmur-models'];

/** The host as the worker uses it: an absolute address (a path is taken on this site). */
function absoluteHost(host: string): string {
  return new URL(host, location.href).href;
}

async function cachedFiles(host: string, id: string) {
  if (!('caches' in globalThis)) return [];
  const prefix = modelPrefix(absoluteHost(host), id);
  const found: { cache: Cache; request: Request }[] = [];
  for (const name of CACHES) {
    if (!(await caches.has(name))) continue;
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      if (request.url.startsWith(prefix)) found.push({ cache, request });
    }
  }
  return found;
}

/** Bytes of a model kept in this browser (0: not downloaded). */
export async function cachedModelBytes(host: string, id: string): Promise<number> {
  let bytes = 0;
  for (const { cache, request } of await cachedFiles(host, id)) {
    const response = await cache.match(request);
    const length = Number(response?.headers.get('content-length') ?? '');
    bytes += Number.isFinite(length) && length > 0 ? length : ((await response?.blob())?.size ?? 0);
  }
  return bytes;
}

/** Deletes a model's files from this browser. */
export async function deleteCachedModel(host: string, id: string): Promise<void> {
  for (const { cache, request } of await cachedFiles(host, id)) await cache.delete(request);
}
