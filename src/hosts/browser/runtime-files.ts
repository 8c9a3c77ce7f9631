import ffmpegCoreUrl from '@ffmpeg/core?url';
import ffmpegWasmUrl from '@ffmpeg/core/wasm?url';
import asyncifyMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import asyncifyWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import plainMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.mjs?url';
import plainWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.wasm?url';
import { ServiceError } from '../../core/contract/errors';
import { RUNTIME_BYTES, type RuntimeName, type RuntimeProgress } from '../../worker/runtimes';

/**
 * The runtimes' files, fetched when first needed rather than with the page, and kept in the
 * app's own cache: the service worker serves them from there (vite.config.ts), so the runtimes
 * load them by their usual URLs, online and offline. Only this module writes the cache, and
 * only a file that arrived whole, so a broken download is never taken for a runtime.
 */
export const RUNTIME_CACHE = 'murmur-runtimes';

const FILES: Readonly<Record<RuntimeName, readonly string[]>> = {
  decoder: [ffmpegCoreUrl, ffmpegWasmUrl],
  speech: [plainMjsUrl, plainWasmUrl],
  gpu: [asyncifyMjsUrl, asyncifyWasmUrl],
};

const WORDS: Readonly<Record<RuntimeName, string>> = {
  decoder: 'The decoder',
  speech: 'The speech runtime',
  gpu: 'The GPU runtime',
};

const absolute = (url: string) => new URL(url, self.location.href).href;

/** Headers a stored copy must not keep: its body is stored decoded, whole, for any request. */
const DROPPED = ['content-encoding', 'content-length', 'vary'];

/** One pass of the fetch reports at most this often (each whole MB). */
const STEP = 1_000_000;

async function fetchWhole(
  url: string,
  onBytes: (received: number) => void,
  signal?: AbortSignal,
): Promise<Response> {
  const response = await fetch(url, signal ? { signal } : {});
  if (!response.ok || !response.body) throw new Error(`${response.status} ${response.statusText}`);
  const declared = response.headers.has('content-encoding')
    ? null
    : Number(response.headers.get('content-length') ?? NaN);
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onBytes(value.byteLength);
  }
  if (declared !== null && Number.isFinite(declared) && declared !== received)
    throw new Error(`the connection ended after ${received} of ${declared} bytes`);
  const headers = new Headers(response.headers);
  for (const name of DROPPED) headers.delete(name);
  return new Response(new Blob(chunks), { status: 200, statusText: 'OK', headers });
}

/** Runtimes whose files are being made ready in this worker, so each is fetched once. */
const preparing = new Map<RuntimeName, Promise<void>>();

/**
 * Makes sure a runtime's files are in the app's cache, fetching those that are not, with
 * progress (bytes of the whole runtime). Where Cache Storage is missing (an insecure origin),
 * the runtime loads from the network as any file does.
 */
export function prepareRuntime(
  runtime: RuntimeName,
  onProgress: (progress: RuntimeProgress) => void = () => undefined,
): Promise<void> {
  let running = preparing.get(runtime);
  if (!running) {
    running = fetchRuntime(runtime, onProgress);
    preparing.set(runtime, running);
    running.catch(() => preparing.delete(runtime));
  }
  return running;
}

async function fetchRuntime(
  runtime: RuntimeName,
  onProgress: (progress: RuntimeProgress) => void,
): Promise<void> {
  if (typeof caches === 'undefined') return;
  const cache = await caches.open(RUNTIME_CACHE);
  const urls = FILES[runtime].map(absolute);
  const missing: string[] = [];
  for (const url of urls) if (!(await cache.match(url, { ignoreVary: true }))) missing.push(url);
  if (missing.length === 0) return;
  const total = RUNTIME_BYTES[runtime];
  // Files kept from an earlier visit count as received.
  let received = 0;
  for (const url of urls) {
    if (missing.includes(url)) continue;
    const kept = await cache.match(url, { ignoreVary: true });
    received += (await kept?.blob())?.size ?? 0;
  }
  let reported = -1;
  const report = (force: boolean) => {
    const step = Math.floor(received / STEP);
    if (!force && step === reported) return;
    reported = step;
    onProgress({ runtime, received: Math.min(received, total), total });
  };
  report(true);
  for (const url of missing) {
    let response: Response;
    try {
      response = await fetchWhole(url, (bytes) => {
        received += bytes;
        report(false);
      });
    } catch (thrown) {
      const reason = thrown instanceof Error ? thrown.message : String(thrown);
      throw new ServiceError(
        'internal_error',
        `${WORDS[runtime]} could not be fetched from ${new URL(url).host} (${reason}). Connect to the network and run it again: once fetched, it is kept for offline use.`,
      );
    }
    await cache.put(url, response);
  }
  report(true);
  await forgetOthers(cache);
}

/** Files of an earlier version of the app (their names change with their content) go. */
async function forgetOthers(cache: Cache): Promise<void> {
  const current = new Set(Object.values(FILES).flat().map(absolute));
  for (const request of await cache.keys()) {
    if (!current.has(request.url)) await cache.delete(request);
  }
}
