import { socialPlatformOf } from '../../../core/audio/media-url';
import type { SourcePage, TranscriptionResponse } from '../../../core/contract/response';
import type { DiskFile } from '../media-file';
import { guardedResolve } from '../page-proxy';
import { ytDlpVersion } from '../yt-dlp';
import {
  WebPageAnswer,
  checkUrlAddress,
  downloadMedia,
  type DownloadLimits,
} from './media-download';
import { ytDlpMissing } from './page-errors';
import { fetchPageMedia } from './page-media';

/** How a host reads links to web pages: the yt-dlp it runs, and its version (null: none runs). */
export interface PageLinks {
  binary: string;
  version: string | null;
}

/** Whether `binary` runs, found once when a host starts. */
export async function pageLinksOf(binary: string): Promise<PageLinks> {
  return { binary, version: await ytDlpVersion(binary) };
}

/** The start-up line that says whether links to web pages are read. */
export function pageLinksLine(links: PageLinks): string {
  return links.version === null
    ? `links to web pages: not available (no yt-dlp runs as "${links.binary}"; install yt-dlp or name it with --yt-dlp PATH)`
    : `links to web pages: read with yt-dlp ${links.version}`;
}

/** The response, with the web page its media was read from in its metadata (if any). */
export function withSourcePage(
  response: TranscriptionResponse,
  page: SourcePage | null,
): TranscriptionResponse {
  if (page === null) return response;
  const metadata = { ...response.prediction_raw.metadata, source_page: page };
  return { ...response, prediction_raw: { ...response.prediction_raw, metadata } };
}

export interface LinkLimits extends DownloadLimits {
  /** Longest media accepted (seconds), or null for no limit. */
  maxSeconds: number | null;
  /** The video endpoint's link: the picture is kept where the page has one. */
  video: boolean;
  pages: PageLinks;
}

export interface LinkedMedia {
  file: DiskFile;
  /** The web page the media was read from, when the link was to one. */
  page: SourcePage | null;
}

/**
 * The media a link names, on disk in `dir`: a media file is downloaded as it is; a web page
 * (one that answers with HTML, or a known platform's) is read with yt-dlp under the same limits
 * and the same address guard. Where no yt-dlp runs, a page is refused saying what to install.
 */
export async function fetchLinkedMedia(
  url: string,
  field: string,
  dir: string,
  limits: LinkLimits,
  signal: AbortSignal,
): Promise<LinkedMedia> {
  const viaPage = async (): Promise<LinkedMedia> => {
    if (limits.pages.version === null) throw ytDlpMissing(field);
    const { file, title } = await fetchPageMedia(
      url,
      {
        binary: limits.pages.binary,
        version: limits.pages.version,
        field,
        dir,
        video: limits.video,
        maxBytes: limits.maxBytes,
        maxSeconds: limits.maxSeconds,
        idleSeconds: limits.idleSeconds,
        totalSeconds: limits.totalSeconds,
        resolve: guardedResolve(limits.allowPrivate),
      },
      signal,
    );
    return { file, page: { url, title } };
  };
  if (socialPlatformOf(url) !== null) {
    checkUrlAddress(url, field, limits.allowPrivate);
    return viaPage();
  }
  try {
    return { file: await downloadMedia(url, field, dir, limits, signal), page: null };
  } catch (thrown) {
    if (thrown instanceof WebPageAnswer) return viaPage();
    throw thrown;
  }
}
