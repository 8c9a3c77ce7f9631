import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { extname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { isMediaContentType, sniffMedia } from '../../../core/audio/media-kind';
import { ServiceError } from '../../../core/contract/errors';
import { MAX_NAME_CHARS, quoted, shortened } from '../../../core/contract/quoted';
import { HEAD_BYTES, refuseNonMedia } from '../../../engine/stages/media/media-input';
import { isPrivateLiteral, publicLookup } from '../address-guard';
import type { DiskFile } from '../media-file';

export interface DownloadLimits {
  maxBytes: number;
  /** The longest the URL's server may send nothing. */
  idleSeconds: number;
  /** The longest the whole download may take. */
  totalSeconds: number;
  /** Let the URL (and its redirects) reach loopback and private addresses. */
  allowPrivate: boolean;
}

const MAX_REDIRECTS = 5;

const mb = (bytes: number) => Math.round(bytes / (1024 * 1024));

/** A failure to fetch, in words that say what went wrong without describing the host. */
export const failed = (field: string, why: string) =>
  new ServiceError('url_fetch_failed', `The media at ${field} could not be fetched: ${why}.`);

export const tooLarge = (field: string, maxBytes: number) =>
  new ServiceError(
    'payload_too_large',
    `The media at ${field} is larger than this service accepts (${mb(maxBytes)} MB).`,
    [{ field, message: `${field} is larger than ${mb(maxBytes)} MB.` }],
  );

/** The refusal of a URL that answered with a web page (a host that reads pages goes on). */
export class WebPageAnswer extends ServiceError {}

export const PRIVATE_RANGES = '(loopback, private or reserved addresses are not fetched)';

function notPublic(field: string): ServiceError {
  const message = `${field} is not a public address ${PRIVATE_RANGES}.`;
  return new ServiceError('invalid_request', message, [{ field, message }]);
}

/** A redirect to an address that is not public: the answer names where it led, not the URL given. */
function redirectNotPublic(field: string, target: URL): ServiceError {
  const message = `${field} redirects to ${quoted(target.href)}, which is not a public address ${PRIVATE_RANGES}.`;
  return new ServiceError('invalid_request', message, [{ field, message }]);
}

/**
 * Refuses, before anything is sent, a URL whose host is an IP literal that is not public (a
 * name is checked when it is resolved, see `publicLookup`).
 */
export function checkUrlAddress(url: string, field: string, allowPrivate: boolean): void {
  if (!allowPrivate && isPrivateLiteral(new URL(url))) throw notPublic(field);
}

/**
 * Where a redirect from `from` leads, checked as the first address was: http(s) only, and an IP
 * literal that is not public refused, naming the address it led to.
 */
export function redirectTarget(
  location: string,
  from: URL,
  field: string,
  allowPrivate: boolean,
): URL {
  const target = new URL(location, from);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw failed(field, 'it redirects to an address that is not http(s)');
  }
  if (!allowPrivate && isPrivateLiteral(target)) throw redirectNotPublic(field, target);
  return target;
}

/**
 * Why a request failed, from Node's error codes, in a few words; `redirected`: the address a
 * redirect led to, when the failure was there.
 */
export function networkReason(error: NodeJS.ErrnoException, redirected: URL | null): string {
  switch (error.code) {
    case 'MURMUR_PRIVATE_ADDRESS':
      return redirected === null
        ? 'its host resolves to an address that is not public'
        : `it redirects to ${quoted(redirected.href)}, whose host resolves to an address that is not public`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'its host name does not resolve';
    case 'ECONNRESET':
    case 'ERR_STREAM_PREMATURE_CLOSE':
      return 'the connection was closed before the whole file arrived';
    default:
      return 'its server could not be reached';
  }
}

/** One GET, answered once its headers are in; `stop` aborts it. */
function get(url: URL, limits: DownloadLimits, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(url, {
      method: 'GET',
      headers: { accept: 'audio/*, video/*, */*;q=0.5', 'user-agent': 'murmur' },
      signal,
      ...(limits.allowPrivate ? {} : { lookup: publicLookup as never }),
    });
    request.on('response', resolve);
    request.on('error', reject);
    request.end();
  });
}

function nameFromUrl(url: URL): string {
  const segment = url.pathname.split('/').pop() ?? '';
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // A % that starts no escape: the segment as it is written.
  }
  const last = decoded.replace(/[^\w.-]+/g, '_');
  return last === '' ? 'media' : shortened(last, MAX_NAME_CHARS);
}

/**
 * Downloads a media URL into `dir`, streamed to disk under the same limit as an upload:
 * redirects followed (each checked like the first), a declared length over the limit refused
 * before the body is read, and a body that passes it cut off, a server that sends nothing for
 * `idleSeconds` or takes more than `totalSeconds` in all given up, and a body cut short refused
 * rather than transcribed in part. Every failure is the service's error: 502 `url_fetch_failed`
 * naming why, 413 over the limit, 415 what is not media.
 */
export async function downloadMedia(
  url: string,
  field: string,
  dir: string,
  limits: DownloadLimits,
  signal: AbortSignal,
): Promise<DiskFile> {
  const controller = new AbortController();
  const why = { reason: '' };
  const giveUp = (reason: string) => {
    why.reason = reason;
    controller.abort();
  };
  const total = setTimeout(
    () => giveUp(`it took longer than ${limits.totalSeconds} s in all`),
    limits.totalSeconds * 1000,
  );
  let idle: ReturnType<typeof setTimeout> | undefined;
  const restartIdle = () => {
    clearTimeout(idle);
    idle = setTimeout(
      () => giveUp(`its server sent nothing for ${limits.idleSeconds} s`),
      limits.idleSeconds * 1000,
    );
  };
  const stopped = AbortSignal.any([signal, controller.signal]);
  restartIdle();
  let current = new URL(url);
  let redirected: URL | null = null;
  try {
    let response: IncomingMessage;
    for (let hop = 0; ; hop++) {
      if (hop === 0) checkUrlAddress(current.href, field, limits.allowPrivate);
      response = await get(current, limits, stopped);
      restartIdle();
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && location !== undefined) {
        response.resume();
        if (hop >= MAX_REDIRECTS)
          throw failed(field, `it redirects more than ${MAX_REDIRECTS} times`);
        current = redirected = redirectTarget(location, current, field, limits.allowPrivate);
        continue;
      }
      if (status < 200 || status >= 300) {
        response.resume();
        throw failed(field, `its server answered ${status}`);
      }
      break;
    }
    const type = response.headers['content-type'] ?? null;
    if (!isMediaContentType(type)) {
      response.resume();
      throw new (/html/i.test(type ?? '') ? WebPageAnswer : ServiceError)(
        'unsupported_media',
        `The media at ${field} is ${/html/i.test(type ?? '') ? 'a web page' : `of type ${quoted(String(type))}`}, not an audio or video file. Link to the media file itself.`,
      );
    }
    const declared = Number(response.headers['content-length'] ?? NaN);
    if (declared > limits.maxBytes) {
      response.destroy();
      throw tooLarge(field, limits.maxBytes);
    }
    const name = nameFromUrl(current);
    const ext = extname(name).toLowerCase();
    const path = join(dir, `download${/^\.[a-z0-9]{1,8}$/.test(ext) ? ext : ''}`);
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        restartIdle();
        if (bytes > limits.maxBytes) return done(tooLarge(field, limits.maxBytes));
        done(null, chunk);
      },
    });
    await pipeline(response, counter, createWriteStream(path), { signal: stopped });
    if (!response.complete || (Number.isFinite(declared) && bytes < declared)) {
      throw failed(field, 'the connection was closed before the whole file arrived');
    }
    if (bytes === 0) {
      throw new ServiceError(
        'undecodable_media',
        `The media at ${field} is an empty file (0 bytes).`,
      );
    }
    const handle = await open(path, 'r');
    try {
      const head = new Uint8Array(Math.min(HEAD_BYTES, bytes));
      await handle.read(head, 0, head.length, 0);
      refuseNonMedia(sniffMedia(head), `The media at ${field}`);
    } finally {
      await handle.close();
    }
    return {
      path,
      name,
      size: bytes,
      type: type?.split(';')[0]?.trim() || 'application/octet-stream',
    };
  } catch (thrown) {
    if (thrown instanceof ServiceError) throw thrown;
    if (signal.aborted) throw signal.reason;
    if (controller.signal.aborted) throw failed(field, why.reason);
    throw failed(field, networkReason(thrown as NodeJS.ErrnoException, redirected));
  } finally {
    clearTimeout(total);
    clearTimeout(idle);
  }
}
