import { ServiceError } from '../../../core/contract/errors';
import { quoted } from '../../../core/contract/quoted';
import type { ProxyStop } from '../page-proxy';
import type { YtDlpRun } from '../yt-dlp';
import { PRIVATE_RANGES, failed, tooLarge } from './media-download';

/**
 * The answers to a link to a web page that yields no media. yt-dlp's own output is read for
 * what went wrong and never passed on: it names hosts, paths and internals of the server.
 */

/** Where yt-dlp is not installed (or does not run). */
export function ytDlpMissing(field: string): ServiceError {
  const message = `${field} is a web page: media is read from web pages with yt-dlp, which is not installed here. Install yt-dlp (or name it with --yt-dlp PATH), or link to the media file itself.`;
  return new ServiceError('not_supported', message, [{ field, message }]);
}

export function noMedia(field: string): ServiceError {
  return new ServiceError(
    'unsupported_media',
    `The page at ${field} holds no media yt-dlp can read. Link to the media file itself.`,
  );
}

export function needsSignIn(field: string): ServiceError {
  return new ServiceError(
    'url_fetch_failed',
    `The page at ${field} needs a sign-in, which this service does not do. Download the media and send the file itself.`,
  );
}

function minutes(seconds: number): string {
  const m = seconds / 60;
  return `${Number.isInteger(m) ? m : m.toFixed(1)} min`;
}

export function tooLongPage(field: string, seconds: number, maxSeconds: number): ServiceError {
  return new ServiceError(
    'payload_too_large',
    `The media on the page at ${field} is longer than this service accepts: it accepts media of up to ${minutes(maxSeconds)}, and this holds ${minutes(seconds)}.`,
    [{ field, message: `${field} holds more than ${minutes(maxSeconds)} of media.` }],
  );
}

/** A page that is read by a yt-dlp too old for it (a platform changes its pages often). */
export function ytDlpTooOld(field: string, version: string | null): ServiceError {
  const which = version === null ? 'yt-dlp' : `yt-dlp ${version}`;
  return new ServiceError(
    'url_fetch_failed',
    `The page at ${field} could not be read by ${which}; a newer yt-dlp may read it: update yt-dlp.`,
  );
}

/** What the guarded proxy gave up for, as the answer for `field`. */
export function proxyStopError(
  field: string,
  stop: ProxyStop,
  limits: { maxBytes: number; idleSeconds: number },
): ServiceError {
  switch (stop.kind) {
    case 'private': {
      const message = `${field} leads to ${quoted(stop.target)}, which is not a public address ${PRIVATE_RANGES}.`;
      return new ServiceError('invalid_request', message, [{ field, message }]);
    }
    case 'unresolved':
      return failed(field, `it leads to ${quoted(stop.target)}, whose host name does not resolve`);
    case 'unreachable':
      return failed(
        field,
        `it leads to ${quoted(stop.target)}, whose server ${stop.refused ? 'refused the connection' : 'could not be reached'}`,
      );
    case 'too-large':
      return tooLarge(field, limits.maxBytes);
    case 'idle':
      return failed(field, `its server sent nothing for ${limits.idleSeconds} s`);
  }
}

/**
 * The answer to a run of yt-dlp that failed on its own, from its last error line: a page with
 * nothing it can read, one behind a sign-in, a server that answered an error or could not be
 * reached; anything else is taken for a page this yt-dlp no longer reads.
 */
export function ytDlpFailure(field: string, run: YtDlpRun, version: string | null): ServiceError {
  if (run.missing) return ytDlpMissing(field);
  const errors = run.stderr.split('\n').filter((line) => line.startsWith('ERROR:'));
  const last = errors.at(-1) ?? '';
  // A page may point at a file of the machine yt-dlp runs on: never fetched.
  if (/file:\/\/ URLs are explicitly disabled/i.test(last)) {
    const message = `The page at ${field} links to a file:// address (a file of the machine that reads the page), which is never fetched. Link to media on the web.`;
    return new ServiceError('invalid_request', message, [{ field, message }]);
  }
  if (/sign in|log ?in|login|cookies|private video|members[- ]only|account/i.test(last)) {
    return needsSignIn(field);
  }
  if (/Unsupported URL|No video formats|no suitable formats|format is not available/i.test(last)) {
    return noMedia(field);
  }
  const status = /HTTP Error (\d{3})/.exec(last);
  if (status) return failed(field, `its server answered ${status[1]}`);
  if (/Unable to download|Connection refused|timed out|Name or service not known/i.test(last)) {
    return failed(field, 'its server could not be reached');
  }
  return ytDlpTooOld(field, version);
}
