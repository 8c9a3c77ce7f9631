import { isMediaContentType, sniffMedia, type SniffResult } from '../../../core/audio/media-kind';
import { socialPlatformOf } from '../../../core/audio/media-url';
import { ENDPOINTS, type Endpoint } from '../../../core/contract/endpoints';
import { ServiceError } from '../../../core/contract/errors';
import { quoted } from '../../../core/contract/quoted';
import type { MediaFile, MediaInput } from '../../../core/contract/request';
import type { FetchPort, FfmpegPort, MediaSource, ProgressListener } from '../../ports';

/**
 * Bytes read to recognise a file's kind: `sniffMedia`'s input, shared with the node host's
 * download, so part of the sniffing rather than a stage setting.
 */
export const HEAD_BYTES = 4096;

export interface FetchOptions {
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  /** See `MediaPorts.crossOriginFetch`. */
  crossOrigin: boolean;
  /** The host's `EnginePorts.fetchTimeoutSeconds`, else the media settings' `fetchTimeoutSeconds`. */
  timeoutSeconds: number;
}

/**
 * An abort signal that fires when `signal` does or when `restart` was last called longer than
 * `seconds` ago; `timedOut` tells which.
 */
function deadline(seconds: number, signal: AbortSignal | undefined) {
  const controller = new AbortController();
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  const restart = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException('The media URL timed out.', 'TimeoutError'));
    }, seconds * 1000);
  };
  restart();
  return {
    signal: controller.signal,
    restart,
    timedOut: () => timedOut,
    stop: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}

const isAbort = (e: unknown) => e instanceof Error && e.name === 'AbortError';

function nameFromUrl(url: URL): string {
  const last = decodeURIComponent(url.pathname.split('/').pop() ?? '').replace(/[^\w.-]+/g, '_');
  return last === '' ? 'media' : last;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

/** Refuses what is not audio or video, naming what it is instead. */
export function refuseNonMedia(sniff: SniffResult, what: string): void {
  if (sniff.kind === null) return;
  if (sniff.kind === 'html') {
    throw new ServiceError(
      'unsupported_media',
      `${what} is a web page (HTML), not an audio or video file. Link to the media file itself, or download it and drop it here.`,
    );
  }
  throw new ServiceError(
    'unsupported_media',
    `${what} is a ${sniff.label ?? sniff.kind}, not audio or video. Give an audio or video file.`,
  );
}

async function readBody(
  response: Response,
  options: FetchOptions,
  label: string,
  onChunk: () => void,
): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? '');
  const total = Number.isFinite(declared) && declared > 0 ? declared : null;
  if (response.body === null) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  let buffer = new Uint8Array(total ?? 1 << 20);
  let length = 0;
  try {
    for (;;) {
      options.signal?.throwIfAborted();
      const { done, value } = await reader.read();
      if (done) break;
      onChunk();
      if (length + value.length > buffer.length) {
        const grown = new Uint8Array(Math.max(buffer.length * 2, length + value.length));
        grown.set(buffer.subarray(0, length));
        buffer = grown;
      }
      buffer.set(value, length);
      length += value.length;
      options.onProgress?.(
        total === null ? null : Math.min(1, length / total),
        `Downloading ${label}: ${megabytes(length)}${total === null ? '' : ` of ${megabytes(total)}`}`,
      );
    }
  } finally {
    reader.releaseLock();
  }
  return buffer.length === length ? buffer : buffer.slice(0, length);
}

/**
 * Refuses the page of a video platform given as a media URL where it is fetched as a file (in
 * the browser, which cannot read another site's page): the Node hosts read such pages with
 * yt-dlp before the pipeline sees them, so the sentence sends the user there.
 */
export function refuseSocialPlatform(url: string, field: string): void {
  const platform = socialPlatformOf(url);
  if (platform === null) return;
  const message = `${field} is a ${platform} page, not a media file: this page cannot fetch media from other sites, but Murmur's command line (murmur transcribe --${field} LINK) or a Murmur server can. Here, download the audio or video file and drop it in, or give a direct link to the file.`;
  throw new ServiceError('invalid_request', message, [{ field, message }]);
}

/**
 * Fetches a media URL with progress and abort, refusing what cannot be media: pages of video
 * platforms, web pages, text. A fetch the browser was not allowed to read is explained, with
 * the way around it.
 */
export async function fetchMedia(
  url: string,
  endpoint: Endpoint,
  fetchPort: FetchPort,
  options: FetchOptions,
): Promise<{ name: string; bytes: Uint8Array }> {
  const field = ENDPOINTS[endpoint].urlField;
  const parsed = new URL(url);
  refuseSocialPlatform(url, field);
  const seconds = options.timeoutSeconds;
  const timer = deadline(seconds, options.signal);
  try {
    return await fetchWithin(url, parsed, field, fetchPort, options, timer);
  } catch (e) {
    if (!timer.timedOut() || options.signal?.aborted) throw e;
    throw new ServiceError(
      'url_fetch_failed',
      `${url} could not be fetched: the server sent nothing for ${seconds} s, so the request was given up.`,
    );
  } finally {
    timer.stop();
  }
}

/**
 * Why a fetch failed before any answer. Node's fetch says only "fetch failed"; the reason (a
 * refused connection, an unknown host) is in its `cause`.
 */
function unreachable(thrown: unknown): string {
  if (!(thrown instanceof Error)) return String(thrown);
  const cause = thrown.cause instanceof Error ? thrown.cause : null;
  const code = (cause as { code?: unknown } | null)?.code;
  if (code === 'ECONNREFUSED') return 'the server refused the connection';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'no server with that name was found';
  if (cause !== null) return `the server could not be reached (${cause.message})`;
  return thrown.message;
}

async function fetchWithin(
  url: string,
  parsed: URL,
  field: string,
  fetchPort: FetchPort,
  options: FetchOptions,
  timer: ReturnType<typeof deadline>,
): Promise<{ name: string; bytes: Uint8Array }> {
  let response: Response;
  try {
    response = await fetchPort(url, { signal: timer.signal });
  } catch (e) {
    if (isAbort(e) || timer.timedOut()) throw e;
    throw new ServiceError(
      'url_fetch_failed',
      options.crossOrigin
        ? `The browser could not read ${url}: the server at ${parsed.host} does not allow other sites to read its files (CORS), or it could not be reached. Download the file and drop it here instead.`
        : `${url} could not be fetched: ${unreachable(e)}.`,
    );
  }
  if (!response.ok) {
    throw new ServiceError(
      'url_fetch_failed',
      `${url} could not be fetched: the server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`,
    );
  }
  const type = response.headers.get('content-type');
  if (!isMediaContentType(type)) {
    const kind = /html/i.test(type ?? '') ? 'a web page' : `"${type}"`;
    throw new ServiceError(
      'unsupported_media',
      `${url} returned ${kind}, not an audio or video file. Link to the media file itself, or download it and drop it here.`,
    );
  }
  const name = nameFromUrl(parsed);
  // The body is read under the same deadline, renewed with every piece that arrives.
  const bytes = await readBody(response, { ...options, signal: timer.signal }, name, timer.restart);
  if (bytes.length === 0) {
    throw new ServiceError('undecodable_media', `${url} returned an empty file (0 bytes).`);
  }
  refuseNonMedia(sniffMedia(bytes.subarray(0, HEAD_BYTES)), `What ${url} returned`);
  return { name, bytes };
}

/** The request's media as a source the decoder reads: the file itself, or fetched bytes. */
export async function mediaSource<F extends MediaFile>(
  media: MediaInput<F>,
  endpoint: Endpoint,
  ports: {
    fetch: FetchPort;
    ffmpeg: FfmpegPort;
    crossOriginFetch: boolean;
    fetchTimeoutSeconds?: number;
  },
  options: { signal?: AbortSignal; onProgress?: ProgressListener; timeoutSeconds: number },
): Promise<MediaSource> {
  if (media.kind === 'url') {
    const fetched = await fetchMedia(media.url, endpoint, ports.fetch, {
      ...options,
      crossOrigin: ports.crossOriginFetch,
      timeoutSeconds: ports.fetchTimeoutSeconds ?? options.timeoutSeconds,
    });
    return { kind: 'bytes', ...fetched };
  }
  const source: MediaSource = { kind: 'file', file: media.file };
  if (media.file.size === 0) {
    throw new ServiceError('invalid_request', `${quoted(media.file.name)} is empty (0 bytes).`);
  }
  const head = await ports.ffmpeg.readHead(source, HEAD_BYTES);
  refuseNonMedia(sniffMedia(head), quoted(media.file.name));
  return source;
}
