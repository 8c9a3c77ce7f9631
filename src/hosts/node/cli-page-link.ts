import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { socialPlatformOf } from '../../core/audio/media-url';
import { ENDPOINTS, type Endpoint } from '../../core/contract/endpoints';
import type { TranscriptionRequest } from '../../core/contract/request';
import type { SourcePage, TranscriptionResponse } from '../../core/contract/response';
import { withSourcePage } from './job-runtime/linked-media';
import { ytDlpMissing } from './job-runtime/page-errors';
import { fetchPageMedia } from './job-runtime/page-media';
import type { DiskFile } from './media-file';
import { guardedResolve } from './page-proxy';
import { ytDlpVersion } from './yt-dlp';
import { DEFAULT_MEDIA_SETTINGS } from '../../engine/stage-settings';

/** The CLI has no total limit (Ctrl-C ends a run); a day stands for none. */
const TOTAL_SECONDS = 24 * 3600;

/**
 * Whether `url` answers with a web page (HTML): only its headers are read. Any failure says
 * no, and the media fetch that follows reports it in its own words.
 */
async function answersWithPage(
  url: string,
  idleSeconds: number,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  const waited = AbortSignal.timeout(idleSeconds * 1000);
  try {
    const response = await fetch(url, {
      signal: signal ? AbortSignal.any([signal, waited]) : waited,
      headers: { accept: 'audio/*, video/*, */*;q=0.5', 'user-agent': 'murmur' },
    });
    await response.body?.cancel();
    return /html/i.test(response.headers.get('content-type') ?? '');
  } catch {
    return false;
  }
}

/**
 * `murmur transcribe`'s reading of a link to a web page (a known platform's, or any address that
 * answers with HTML): its media read with yt-dlp into a folder of the run's own, removed by
 * `close`; a media file's link is left to the pipeline's fetch, as before. The CLI runs for the
 * person who types it, so, like its fetch of a media file, it reaches any address; a server that
 * sends nothing for `idleSeconds` (the fetch's own time-out) is given up.
 */
export function cliPageLink(
  binary: string,
  endpoint: Endpoint,
  idleSeconds = DEFAULT_MEDIA_SETTINGS.fetchTimeoutSeconds,
) {
  let page: SourcePage | null = null;
  let dir: string | null = null;
  return {
    prepare: async (
      request: TranscriptionRequest<DiskFile>,
      signal: AbortSignal | undefined,
    ): Promise<TranscriptionRequest<DiskFile>> => {
      if (request.media.kind !== 'url') return request;
      const url = request.media.url;
      if (socialPlatformOf(url) === null && !(await answersWithPage(url, idleSeconds, signal)))
        return request;
      const field = ENDPOINTS[endpoint].urlField;
      const version = await ytDlpVersion(binary);
      if (version === null) throw ytDlpMissing(field);
      dir = await mkdtemp(join(tmpdir(), 'murmur-page-'));
      const read = await fetchPageMedia(
        url,
        {
          binary,
          version,
          field,
          dir,
          video: endpoint === 'video',
          maxBytes: Number.MAX_SAFE_INTEGER,
          maxSeconds: null,
          idleSeconds,
          totalSeconds: TOTAL_SECONDS,
          resolve: guardedResolve(true),
        },
        signal ?? new AbortController().signal,
      );
      page = { url, title: read.title };
      return { ...request, media: { kind: 'file', file: read.file } };
    },
    annotate: (response: TranscriptionResponse) => withSourcePage(response, page),
    close: async () => {
      if (dir !== null) await rm(dir, { recursive: true, force: true });
    },
  };
}
