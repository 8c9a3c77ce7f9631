import { fileIdentity, mergeIdentity, type FileIdentity } from '../../core/download/file-identity';
import {
  brokenDownload,
  changedDuringDownload,
  integrityFailure,
  integrityVerdict,
} from '../../core/download/integrity';
import { rangeHeader, resumeStep } from '../../core/download/range-plan';
import {
  isTransientStatus,
  MODEL_DOWNLOAD_RETRIES,
  retryPause,
  type RetryPolicy,
} from '../../core/download/retry-schedule';
import type { PartStore, RangeFetchPort } from '../ports';

/** What a download needs from its host. */
export interface ModelDownloadPorts {
  fetch: RangeFetchPort;
  /** Where the part received so far is kept (none: a part lives only as long as its try). */
  parts?: PartStore;
  /**
   * A sha256 fed a chunk at a time, so that a file is checked without being held whole: the
   * reader (transformers.js) keeps its own copy, and a second one would double a large model's
   * memory.
   */
  sha256: () => Sha256Hasher;
  /** Waits `ms`, or rejects with an `AbortError` when `signal` aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /**
   * True where `fetch` hands redirects back unfollowed (Node): a hub's redirect to its storage
   * carries the file's size and sha256 (`X-Linked-Size`, `X-Linked-Etag`), its target does not.
   * A browser follows redirects itself and shows only the target's headers.
   */
  manualRedirects?: boolean;
  policy?: RetryPolicy;
  /** Told before each pause: a download broke and is tried again. */
  onRetry?: (retry: { url: string; received: number; pauseMs: number; failures: number }) => void;
}

/** A sha256 computed as the bytes come. */
export interface Sha256Hasher {
  update: (bytes: Uint8Array) => void;
  /** The digest as 64 lower-case hex digits; called once, after the last `update`. */
  hex: () => string;
}

/** The part kept between saves: written each time this many new bytes have come. */
const SAVE_EVERY_BYTES = 1 << 20;
const MAX_REDIRECTS = 10;

/** The file's path in its model (`onnx/encoder_model.onnx`), for sentences; else the URL. */
export function modelFilePath(url: string): string {
  const match = /\/resolve\/[^/]+\/(.+)$/.exec(new URL(url).pathname);
  return match ? decodeURIComponent(match[1]!) : url;
}

function concat(chunks: readonly Uint8Array[], length: number): Uint8Array {
  if (chunks.length === 1 && chunks[0]!.length === length) return chunks[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function aborted(thrown: unknown): boolean {
  return thrown instanceof Error && thrown.name === 'AbortError';
}

/** An answer whose body was opened at the byte the download had reached. */
type Opened =
  | { kind: 'body'; reader: ReadableStreamDefaultReader<Uint8Array>; skip: number }
  | { kind: 'complete' }
  | { kind: 'refused'; response: Response };

/**
 * Fetches one model file so that it survives a bad network: a connection that breaks is tried
 * again after a pause and goes on from the byte it reached (`Range`), a host without ranges is
 * read again from the start (the bytes already had are skipped), and the part received so far
 * is kept in `ports.parts`, so that the next try (after a reload too) goes on from it.
 *
 * The answer is the host's own when it refuses the file (a 404 stays a 404); otherwise a 200
 * whose body streams the file as it comes. The body ends only once the whole file is there and
 * its size and sha256 (where the host gives them) match; otherwise it fails with a sentence
 * saying which file and what was wrong, so a reader that caches what it read never caches it.
 */
export async function downloadModelFile(
  url: string,
  ports: ModelDownloadPorts,
  options: { signal?: AbortSignal; headers?: Record<string, string> } = {},
): Promise<Response> {
  const { signal } = options;
  const policy = ports.policy ?? MODEL_DOWNLOAD_RETRIES;
  const file = modelFilePath(url);
  const stop = new AbortController();
  const forward = () => stop.abort(signal?.reason);
  if (signal?.aborted) forward();
  signal?.addEventListener('abort', forward, { once: true });

  const kept = ports.parts ? await ports.parts.read(url).catch(() => null) : null;
  let identity: FileIdentity | null = kept?.identity ?? null;
  // The kept part goes to the reader first; after it, only the bytes not yet saved are held.
  let keptPart: Uint8Array | null = kept && kept.bytes.length > 0 ? kept.bytes : null;
  let unsaved: Uint8Array[] = [];
  let received = keptPart?.length ?? 0;
  let saved = received;
  let delivered = 0;
  let failures = 0;
  // Whether the parts store still takes the part: one that is full stops holding bytes for it.
  let keeping = ports.parts !== undefined;
  // Hashed only where the host announced a sha256 before the first byte: a browser sees none
  // from the hub (its redirects hide them), and hashing a large model costs seconds.
  let hasher: Sha256Hasher | null = null;
  const hash = (bytes: Uint8Array, at: number) => {
    if (hasher === null && at === 0 && identity?.sha256) hasher = ports.sha256();
    hasher?.update(bytes);
  };

  const drop = () => ports.parts?.drop(url).catch(() => undefined);
  const save = async () => {
    if (!ports.parts || !keeping || identity === null || received === saved) return;
    const bytes = concat(unsaved, received - saved);
    unsaved = [];
    try {
      await ports.parts.append(url, identity, saved, bytes);
      saved = received;
    } catch {
      // A store that is full or missing only costs the resume; the download goes on, holding
      // nothing more for it.
      keeping = false;
    }
  };

  /** One request from byte `received`, following redirects where the host hands them back. */
  const request = async (): Promise<{ response: Response; identity: FileIdentity }> => {
    const range = rangeHeader(received);
    let target = url;
    let seen: FileIdentity = { size: null, sha256: null, validator: null };
    for (let hop = 0; ; hop++) {
      const response = await ports.fetch(target, {
        signal: stop.signal,
        headers: { ...options.headers, ...(range ? { Range: range } : {}) },
        ...(ports.manualRedirects ? { redirect: 'manual' } : {}),
      });
      seen = mergeIdentity(seen, fileIdentity(response.status, response.headers));
      const location = response.headers.get('location');
      if (!ports.manualRedirects || response.status < 300 || response.status > 399 || !location) {
        return { response, identity: seen };
      }
      if (hop >= MAX_REDIRECTS) return { response, identity: seen };
      await response.body?.cancel().catch(() => undefined);
      target = new URL(location, target).href;
    }
  };

  /** Waits before the next try, or throws the sentence when the tries are spent. */
  const pauseOrGiveUp = async (cause: unknown) => {
    failures += 1;
    const pauseMs = retryPause(policy, failures);
    if (pauseMs === null) {
      const error = new Error(brokenDownload(file, failures, received, identity?.size ?? null));
      (error as Error & { cause?: unknown }).cause = cause;
      throw error;
    }
    ports.onRetry?.({ url, received, pauseMs, failures });
    await ports.sleep(pauseMs, stop.signal);
  };

  /** Opens the file at the byte reached, trying again while the host or the network fails. */
  const open = async (): Promise<Opened> => {
    for (;;) {
      let answer: Awaited<ReturnType<typeof request>>;
      try {
        answer = await request();
      } catch (thrown) {
        // A host that cannot be reached at all is said at once, as before (a wrong address);
        // only a download under way (some bytes had) is worth the pauses.
        if (aborted(thrown) || (received === 0 && delivered === 0 && failures === 0)) throw thrown;
        await save();
        await pauseOrGiveUp(thrown);
        continue;
      }
      const { response } = answer;
      if (isTransientStatus(response.status)) {
        await response.body?.cancel().catch(() => undefined);
        const pauseMs = retryPause(policy, failures + 1);
        if (pauseMs === null) return { kind: 'refused', response };
        await pauseOrGiveUp(new Error(`status ${response.status}`));
        continue;
      }
      if (!response.ok && response.status !== 416) {
        if (received > 0) await drop();
        return { kind: 'refused', response };
      }
      const step = resumeStep(
        { identity: identity ?? answer.identity, received },
        { status: response.status, headers: response.headers, identity: answer.identity },
      );
      if (step.kind === 'changed') {
        await response.body?.cancel().catch(() => undefined);
        await drop();
        // Bytes of the old file have gone to the reader: this try cannot be mended.
        if (delivered > 0) throw new Error(changedDuringDownload(file));
        identity = null;
        keptPart = null;
        unsaved = [];
        hasher = null;
        received = saved = 0;
        if (response.status === 200) {
          identity = answer.identity;
          return { kind: 'body', reader: response.body!.getReader(), skip: 0 };
        }
        continue;
      }
      identity = mergeIdentity(identity ?? answer.identity, answer.identity);
      if (step.kind === 'complete') return { kind: 'complete' };
      if (!response.body) return { kind: 'complete' };
      return {
        kind: 'body',
        reader: response.body.getReader(),
        skip: step.kind === 'skip' ? step.bytes : 0,
      };
    }
  };

  let first: Opened;
  try {
    first = await open();
  } catch (thrown) {
    signal?.removeEventListener('abort', forward);
    throw thrown;
  }
  if (first.kind === 'refused') {
    signal?.removeEventListener('abort', forward);
    return first.response;
  }

  const pump = async (controller: ReadableStreamDefaultController<Uint8Array>) => {
    try {
      await deliver(controller);
    } finally {
      signal?.removeEventListener('abort', forward);
    }
  };

  const deliver = async (controller: ReadableStreamDefaultController<Uint8Array>) => {
    if (keptPart !== null) {
      hash(keptPart, 0);
      controller.enqueue(keptPart);
      keptPart = null;
    }
    delivered = received;
    let opened: Opened = first;
    for (;;) {
      if (opened.kind === 'complete') break;
      if (opened.kind === 'refused') {
        throw new Error(
          brokenDownload(file, Math.max(1, failures), received, identity?.size ?? null),
        );
      }
      try {
        let skip = opened.skip;
        for (;;) {
          const { done, value } = await opened.reader.read();
          if (done) break;
          let chunk = value;
          if (skip > 0) {
            const cut = Math.min(skip, chunk.length);
            chunk = chunk.subarray(cut);
            skip -= cut;
            if (chunk.length === 0) continue;
          }
          hash(chunk, received);
          // Held only until it is saved, and only where there is a store to save it in.
          if (keeping) unsaved.push(chunk.slice());
          received += chunk.length;
          delivered = received;
          failures = 0;
          controller.enqueue(chunk);
          if (received - saved >= SAVE_EVERY_BYTES) await save();
        }
        break;
      } catch (thrown) {
        if (aborted(thrown) || stop.signal.aborted) throw thrown;
        await save();
        await pauseOrGiveUp(thrown);
        opened = await open();
      }
    }
    unsaved = [];
    const announced = identity ?? { size: null, sha256: null, validator: null };
    const sha256 = announced.sha256 === null || hasher === null ? null : hasher.hex();
    const verdict = integrityVerdict(announced, received, sha256);
    // Whole or damaged, the part has served: a damaged one must not be resumed either.
    await drop();
    if (!verdict.ok) throw new Error(integrityFailure(file, verdict));
  };

  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      pump(controller).then(
        () => controller.close(),
        (thrown: unknown) => controller.error(thrown),
      );
    },
    cancel(reason) {
      stop.abort(reason);
    },
  });
  const size = identity === null ? null : (identity as FileIdentity).size;
  const headers: Record<string, string> = { 'content-type': 'application/octet-stream' };
  if (size !== null) headers['content-length'] = String(size);
  return new Response(body, { status: 200, headers });
}

/** A `fetch` as transformers.js calls it (`env.fetch`). */
export type LibraryFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

function headerRecord(headers: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  new Headers(headers).forEach((value, name) => (out[name] = value));
  return out;
}

/**
 * transformers.js' `fetch`: a model file from `host` is downloaded with `downloadModelFile`;
 * anything else (the runtime's own files), and its own probes of a file's size (a `Range` of
 * one byte), go to `plain` as they are.
 */
export function resilientModelFetch(
  host: string,
  ports: ModelDownloadPorts,
  plain: LibraryFetch,
): LibraryFetch {
  return (input, init) => {
    const url = typeof input === 'string' ? input : input.href;
    const headers = headerRecord(init?.headers);
    const method = (init?.method ?? 'GET').toUpperCase();
    if (!url.startsWith(host) || method !== 'GET' || 'range' in headers) return plain(input, init);
    return downloadModelFile(url, ports, {
      ...(init?.signal ? { signal: init.signal } : {}),
      headers,
    });
  };
}

/** Waits `ms`; rejects with an `AbortError` as soon as `signal` aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new DOMException('The download was stopped.', 'AbortError'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', fail);
      resolve();
    }, ms);
    if (signal?.aborted) fail();
    else signal?.addEventListener('abort', fail, { once: true });
  });
}
