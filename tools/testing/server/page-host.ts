import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What `/big.wav` sends: more than 8 MiB past a 1 MB limit. */
const BIG_BYTES = 12 * 1024 * 1024;

const html = (title: string, head: string, body = '') =>
  `<!DOCTYPE html><html><head><title>${title}</title>${head}</head><body><h1>${title}</h1>${body}</body></html>`;

/**
 * Web pages on 127.0.0.1 that embed a recording as sites do, one path per kind:
 * `/og-video.html` an `og:video` tag, `/audio.html` an `<audio>` element, `/long.html` JSON-LD
 * that declares a three-hour recording, `/no-media.html` text only, `/private.html` an `og:video`
 * whose address redirects to `privateOrigin` (an address the guard refuses), `/endless.html` a
 * page whose body never ends, `/big.html` a recording of 12 MiB with no declared length,
 * `/slow.html` one sent a kilobyte at a time, `/video.html` a `<video>` of `options.video`,
 * `/two.html` two `<audio>` elements (the recording, then the large one), `/refused.html` an
 * `<audio>` at `options.deadOrigin`, `/file-link.html` an `<audio>` of a `file://` address. `/recording.wav` is the recording itself, `/long.wav` a stand-in
 * that is never meant to be read. `host` names the pages' origin in the links they hold.
 */
export async function startPageHost(
  recording: string,
  /** `deadOrigin`: an origin nothing listens at, which `/refused.html` links its audio to. */
  options: { host?: string; video?: string; deadOrigin?: string } = {},
) {
  const open = new Set<ServerResponse>();
  const bytes = readFileSync(recording);
  const requests: string[] = [];
  let origin = '';
  let privateOrigin = '';
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url ?? ''}`);
    open.add(response);
    response.on('close', () => open.delete(response));
    const page = (text: string) =>
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(text);
    const video = (url: string) =>
      `<meta property="og:video" content="${url}"><meta property="og:video:type" content="audio/wav">`;
    switch (request.url) {
      case '/og-video.html':
        return page(html('A talk on a page', video(`${origin}/recording.wav`)));
      case '/audio.html':
        return page(
          html('A podcast episode', '', `<audio controls src="${origin}/recording.wav"></audio>`),
        );
      case '/long.html': {
        const ld = {
          '@context': 'https://schema.org',
          '@type': 'VideoObject',
          name: 'A very long recording',
          contentUrl: `${origin}/long.wav`,
          duration: 'PT3H0M0S',
        };
        return page(
          html(
            'A very long recording',
            `<script type="application/ld+json">${JSON.stringify(ld)}</script>`,
          ),
        );
      }
      case '/no-media.html':
        return page(html('Only words', '', '<p>Nothing to listen to here.</p>'));
      case '/refused.html':
        return page(
          html('A talk', '', `<audio src="${options.deadOrigin ?? ''}/talk.mp3"></audio>`),
        );
      case '/file-link.html':
        return page(html('A talk', '', '<audio src="file:///etc/passwd"></audio>'));
      case '/private.html':
        return page(html('A talk elsewhere', video(`${origin}/to-private.wav`)));
      case '/to-private.wav':
        return response.writeHead(302, { location: `${privateOrigin}/recording.wav` }).end();
      case '/two.html':
        return page(
          html(
            'Two episodes',
            '',
            `<audio src="${origin}/recording.wav"></audio><audio src="${origin}/big.wav"></audio>`,
          ),
        );
      case '/video.html':
        return page(
          html('A talk on video', '', `<video controls src="${origin}/clip.mp4"></video>`),
        );
      case '/clip.mp4': {
        const clip = readFileSync(options.video ?? recording);
        return response
          .writeHead(200, { 'content-type': 'video/mp4', 'content-length': clip.length })
          .end(clip);
      }
      case '/big.html':
        return page(html('A large recording', video(`${origin}/big.wav`)));
      case '/big.wav': {
        // No declared length: only what arrives can tell its size.
        response.writeHead(200, { 'content-type': 'audio/wav' });
        let left = BIG_BYTES;
        const chunk = Buffer.alloc(64 * 1024, 1);
        const more = () => {
          while (left > 0 && !response.destroyed) {
            left -= chunk.length;
            if (!response.write(chunk)) return void response.once('drain', more);
          }
          response.end();
        };
        return more();
      }
      case '/slow.html':
        return page(html('A recording served slowly', video(`${origin}/slow.wav`)));
      case '/slow.wav': {
        response.writeHead(200, { 'content-type': 'audio/wav', 'content-length': bytes.length });
        let at = 0;
        const timer = setInterval(() => {
          response.write(bytes.subarray(at, at + 1024));
          at += 1024;
          if (at >= bytes.length) clearInterval(timer);
        }, 200);
        response.on('close', () => clearInterval(timer));
        return;
      }
      case '/endless.html':
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.write('<!DOCTYPE html><html><head><title>Still coming</title>');
        return;
      case '/recording.wav':
      case '/long.wav':
        return response
          .writeHead(200, { 'content-type': 'audio/wav', 'content-length': bytes.length })
          .end(bytes);
      default:
        response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  origin = `http://${options.host ?? '127.0.0.1'}:${port}`;
  privateOrigin = `http://127.0.0.1:${port}`;
  return {
    url: (path: string) => `${origin}${path}`,
    port,
    /** The paths asked for so far, in order. */
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of open) response.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The processes (their ids) whose command line holds every one of `texts`: a child left running shows here. */
export function processesWith(...texts: string[]): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    let line = '';
    try {
      line = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    if (texts.every((text) => line.includes(text))) found.push(Number(entry));
  }
  return found;
}
