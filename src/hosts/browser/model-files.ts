import { downloadModelFile } from '../../engine/models/model-download';
import type { ModelFiles } from '../../engine/ports';
import { browserDownloadPorts } from './transformers-setup';

const CACHE = 'murmur-models';

/**
 * Model files from a host in the hub's layout (`{host}{model id}/resolve/main/{file}`: the hub
 * itself, a mirror, or the app's own `/hub/` in tests), kept in Cache Storage so that they load
 * offline once fetched. A download that breaks resumes (see `downloadModelFile`); only a whole,
 * checked file is put in the cache.
 */
export function browserModelFiles(host: string): ModelFiles {
  const base = new URL(host.endsWith('/') ? host : `${host}/`, self.location.href).href;
  return {
    host: base,
    async get(modelId, path, options) {
      const url = `${base}${modelId}/resolve/main/${path}`;
      const cache = 'caches' in self ? await caches.open(CACHE).catch(() => null) : null;
      const cached = await cache?.match(url);
      if (cached) return new Uint8Array(await cached.arrayBuffer());
      const response = await downloadModelFile(
        url,
        browserDownloadPorts(),
        options.signal ? { signal: options.signal } : {},
      );
      if (!response.ok)
        throw new Error(`Model file ${url} could not be fetched (${response.status}).`);
      const total = Number(response.headers.get('content-length') ?? '') || null;
      const chunks: Uint8Array[] = [];
      let received = 0;
      const reader = response.body?.getReader();
      if (reader === undefined) return new Uint8Array(await response.arrayBuffer());
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        received += value.length;
        options.onProgress?.(total === null ? null : received / total, `Loading ${modelId}`);
      }
      const bytes = new Uint8Array(received);
      let at = 0;
      for (const c of chunks) {
        bytes.set(c, at);
        at += c.length;
      }
      await cache?.put(url, new Response(bytes)).catch(() => undefined);
      return bytes;
    },
  };
}
