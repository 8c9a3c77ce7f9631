import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A media URL host on 127.0.0.1 that misbehaves as hostile or broken servers do, one path per
 * way: `/trickle` one byte a second, `/endless` a chunked body that never ends, `/huge` a
 * declared length of 5 GB, `/cut` a body that stops short of its declared length.
 */
export async function startMediaHost() {
  const open = new Set<ServerResponse>();
  const server = createServer((request, response) => {
    open.add(response);
    response.on('close', () => open.delete(response));
    const every = (ms: number, send: () => void) => {
      const timer = setInterval(() => {
        if (response.destroyed) clearInterval(timer);
        else send();
      }, ms);
      response.on('close', () => clearInterval(timer));
    };
    switch (request.url) {
      case '/trickle.wav':
        response.writeHead(200, { 'content-type': 'audio/wav' });
        every(1000, () => void response.write(Buffer.from('R')));
        return;
      case '/endless.wav': {
        response.writeHead(200, { 'content-type': 'audio/wav' });
        const chunk = Buffer.alloc(256 * 1024, 1);
        // Written while the client reads (a pause in reading is not the end of the body).
        every(1, () => void (response.writableNeedDrain || response.write(chunk)));
        return;
      }
      case '/huge.wav':
        response.writeHead(200, { 'content-type': 'audio/wav', 'content-length': '5000000000' });
        response.write(Buffer.alloc(1024, 1));
        return;
      case '/cut.wav':
        response.writeHead(200, { 'content-type': 'audio/wav', 'content-length': '100000' });
        response.write(Buffer.alloc(1000, 1), () => response.destroy());
        return;
      case '/page.html':
        response.writeHead(200, { 'content-type': 'text/html' }).end('<html>intranet</html>');
        return;
      default:
        response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of open) response.destroy();
        server.close(() => resolve());
      }),
  };
}
