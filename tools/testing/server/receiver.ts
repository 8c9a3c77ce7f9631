import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook receiver on 127.0.0.1 that records what it is sent. `answers` are the statuses of
 * successive POSTs (the last one repeats); `cors` answers browsers' preflights; `redirectTo`
 * answers each POST 307 with that address as its `Location`.
 */
export async function startReceiver(
  options: { answers?: number[]; cors?: boolean; redirectTo?: string } = {},
) {
  const answers = options.answers ?? [200];
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (d: Buffer) => (body += d.toString()));
    request.on('end', () => {
      if (options.cors) {
        response.setHeader('access-control-allow-origin', request.headers.origin ?? '*');
        response.setHeader('access-control-allow-headers', 'content-type');
        response.setHeader('access-control-allow-methods', 'POST');
      }
      if (request.method === 'OPTIONS') {
        response.writeHead(options.cors ? 204 : 404).end();
        return;
      }
      received.push({ method: request.method ?? '', headers: request.headers, body });
      if (options.redirectTo !== undefined) {
        response.writeHead(307, { location: options.redirectTo }).end();
        waiters.splice(0).forEach((wake) => wake());
        return;
      }
      const status = answers[Math.min(received.length - 1, answers.length - 1)] ?? 200;
      response.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
      waiters.splice(0).forEach((wake) => wake());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/transcripts`,
    received,
    /** Resolves once `count` POSTs have arrived. */
    async waitFor(count: number): Promise<Received[]> {
      while (received.length < count) await new Promise<void>((wake) => waiters.push(wake));
      return received;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback URL on which nothing listens (a port opened, then closed). */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/hooks/transcripts`;
}
