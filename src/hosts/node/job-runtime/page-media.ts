import { open, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sniffMedia } from '../../../core/audio/media-kind';
import { HEAD_BYTES, refuseNonMedia } from '../../../engine/stages/media/media-input';
import { diskFile, type DiskFile } from '../media-file';
import { startGuardedProxy, type ProxyResolve, type ProxyStop } from '../page-proxy';
import { runYtDlp, type YtDlpRun } from '../yt-dlp';
import { failed, tooLarge } from './media-download';
import { noMedia, proxyStopError, tooLongPage, ytDlpFailure } from './page-errors';

/** What a link to a web page is read under: the request's own limits and the guard's resolver. */
export interface PageFetch {
  /** The yt-dlp to run. */
  binary: string;
  /** Its version, when known, for the sentence that asks for a newer one. */
  version: string | null;
  field: string;
  /** The request's own folder: what yt-dlp writes goes there, and nowhere else. */
  dir: string;
  /** The video endpoint keeps the picture where the page has one; audio is enough otherwise. */
  video: boolean;
  maxBytes: number;
  /** Longest media accepted (seconds), or null for no limit. */
  maxSeconds: number | null;
  idleSeconds: number;
  totalSeconds: number;
  /** How every host yt-dlp asks for is resolved and checked (see `guardedResolve`). */
  resolve: ProxyResolve;
}

export interface PageMedia {
  file: DiskFile;
  /** The page's title, as its media's extractor read it. */
  title: string | null;
}

/**
 * Room for what yt-dlp reads besides the media (the page, a player script, manifests), on top
 * of the media's own limit, in the bytes the proxy lets through.
 */
const PAGE_ALLOWANCE = 8 * 1024 * 1024;

const INFO = 'page-info.json';
const MEDIA = 'page-media';

/**
 * yt-dlp's options for every run: nothing read from its configuration files, no cookies, no
 * cache, no playlist (one link is one recording), no commands or fixes run afterwards, its own
 * downloader only (an external one would not go through the proxy), and every connection
 * through the guarded proxy.
 */
function commonArgs(proxy: string, page: PageFetch): string[] {
  return [
    '--ignore-config',
    '--no-cookies',
    '--no-cookies-from-browser',
    '--no-cache-dir',
    '--no-playlist',
    // A page with several recordings is read as a list of them: its first one is the link's.
    '--playlist-items',
    '1',
    '--no-exec',
    '--restrict-filenames',
    '--fixup',
    'never',
    '--downloader',
    'native',
    '--proxy',
    proxy,
    '--socket-timeout',
    String(page.idleSeconds),
    '--max-filesize',
    String(page.maxBytes),
    '--format',
    page.video ? 'best/bestvideo/bestaudio' : 'bestaudio/best',
    '--no-progress',
    '--no-warnings',
  ];
}

/** Removes what yt-dlp wrote into the request's folder (its info, its media, its parts). */
async function removeOwnFiles(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((name) => name === INFO || name.startsWith(`${MEDIA}.`))
      .map((name) => rm(join(dir, name), { force: true })),
  );
}

interface Info {
  id?: unknown;
  title?: unknown;
  duration?: unknown;
  filesize?: unknown;
  filesize_approx?: unknown;
  /** A page read as a list of recordings (only its first, see `--playlist-items`). */
  entries?: Info[];
}

/**
 * The page's title as its media's extractor read it. yt-dlp numbers each recording a page
 * embeds (`<audio>`, `<video>`) by adding " (N)" to the page's title and "-N" to its id: the
 * number is yt-dlp's, not the page's, and is dropped.
 */
export function pageTitle(info: { id?: unknown; title?: unknown }): string | null {
  if (typeof info.title !== 'string' || info.title.trim() === '') return null;
  const numbered = / \((\d+)\)$/.exec(info.title);
  if (numbered && typeof info.id === 'string' && info.id.endsWith(`-${numbered[1]}`))
    return info.title.slice(0, numbered.index);
  return info.title;
}

/**
 * Reads the media of the web page at `url` with yt-dlp into `page.dir`: first what the page
 * holds (its title and duration: media longer than the service takes is refused before a byte
 * of it is fetched), then the media itself. yt-dlp reaches the network only through a proxy
 * that checks every address against the guard, counts every byte (over the limit, refused while
 * fetching) and watches for silence; the total time-out and `signal` end yt-dlp and whatever it
 * started, and its files are removed. Every failure is the service's error.
 */
export async function fetchPageMedia(
  url: string,
  page: PageFetch,
  signal: AbortSignal,
): Promise<PageMedia> {
  const controller = new AbortController();
  let stopped: ProxyStop | 'total' | null = null;
  const giveUp = (why: ProxyStop | 'total') => {
    stopped ??= why;
    controller.abort();
  };
  const proxy = await startGuardedProxy({
    resolve: page.resolve,
    maxBytes: page.maxBytes + PAGE_ALLOWANCE,
    idleSeconds: page.idleSeconds,
    onStop: giveUp,
  });
  const total = setTimeout(() => giveUp('total'), page.totalSeconds * 1000);
  const ended = AbortSignal.any([signal, controller.signal]);
  const args = commonArgs(proxy.url, page);
  const field = page.field;
  const check = (run: YtDlpRun) => {
    if (signal.aborted) throw signal.reason;
    if (stopped === 'total')
      throw failed(field, `it took longer than ${page.totalSeconds} s in all`);
    if (stopped !== null) throw proxyStopError(field, stopped, page);
    if (run.status !== 0) throw ytDlpFailure(field, run, page.version);
  };
  try {
    const read = await runYtDlp(page.binary, [...args, '--dump-single-json', '--', url], ended);
    check(read);
    let info: Info;
    try {
      info = JSON.parse(read.stdout) as Info;
    } catch {
      throw noMedia(field);
    }
    const media = info.entries?.[0] ?? info;
    const duration = typeof media.duration === 'number' ? media.duration : null;
    if (page.maxSeconds !== null && duration !== null && duration > page.maxSeconds) {
      throw tooLongPage(field, duration, page.maxSeconds);
    }
    const size = Number(media.filesize ?? media.filesize_approx ?? NaN);
    if (size > page.maxBytes) throw tooLarge(field, page.maxBytes);
    const infoPath = join(page.dir, INFO);
    await writeFile(infoPath, read.stdout);
    const output = join(page.dir, `${MEDIA}.%(ext)s`);
    const got = await runYtDlp(
      page.binary,
      [...args, '--no-part', '--load-info-json', infoPath, '--output', output],
      ended,
    );
    check(got);
    const name = (await readdir(page.dir)).find((n) => n.startsWith(`${MEDIA}.`));
    // yt-dlp skips, and exits 0, a file that declares more than --max-filesize.
    if (name === undefined) throw tooLarge(field, page.maxBytes);
    const path = join(page.dir, name);
    const bytes = (await stat(path)).size;
    if (bytes > page.maxBytes) throw tooLarge(field, page.maxBytes);
    if (bytes === 0) throw noMedia(field);
    const handle = await open(path, 'r');
    try {
      const head = new Uint8Array(Math.min(HEAD_BYTES, bytes));
      await handle.read(head, 0, head.length, 0);
      refuseNonMedia(sniffMedia(head), `The media on the page at ${field}`);
    } finally {
      await handle.close();
    }
    await rm(infoPath, { force: true });
    const title = pageTitle(info);
    const file = await diskFile(path);
    if (file === null) throw noMedia(field);
    return { file, title };
  } catch (thrown) {
    await removeOwnFiles(page.dir);
    throw thrown;
  } finally {
    clearTimeout(total);
    await proxy.close();
  }
}
