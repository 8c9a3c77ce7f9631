import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedResolve, startGuardedProxy, type ProxyStop } from './page-proxy';

let origin: Server;
let port = 0;

beforeAll(async () => {
  origin = createServer((_request, response) => response.end('behind the guard'));
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  port = (origin.address() as AddressInfo).port;
});
afterAll(() => origin.close());

async function proxy(allowPrivate: boolean) {
  const stops: ProxyStop[] = [];
  const started = await startGuardedProxy({
    resolve: guardedResolve(allowPrivate),
    maxBytes: 1024 * 1024,
    idleSeconds: 5,
    onStop: (stop) => stops.push(stop),
  });
  return { ...started, stops };
}

/** A plain-http GET through the proxy (absolute form): its status and body. */
function getThrough(proxyUrl: string, url: string): Promise<{ status: number; body: string }> {
  const via = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const sent = request({ host: via.hostname, port: via.port, path: url }, (response) => {
      let body = '';
      response.on('data', (d: Buffer) => (body += d.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

/** The proxy's answer to a CONNECT (the tunnel https goes through). */
function connectThrough(proxyUrl: string, target: string): Promise<number> {
  const via = new URL(proxyUrl);
  return new Promise((resolve, reject) => {
    const sent = request({ host: via.hostname, port: via.port, method: 'CONNECT', path: target });
    sent.on('connect', (response, socket) => {
      socket.destroy();
      resolve(response.statusCode ?? 0);
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('the guarded proxy', () => {
  it('refuses a loopback address, by name or by number, for http and for a tunnel', async () => {
    for (const host of ['127.0.0.1', 'localhost']) {
      const guarded = await proxy(false);
      try {
        const answer = await getThrough(guarded.url, `http://${host}:${port}/secret`);
        expect(answer.status).toBe(403);
        expect(answer.body).toBe('');
        expect(guarded.stops).toEqual([
          { kind: 'private', target: `http://${host}:${port}/secret` },
        ]);
      } finally {
        await guarded.close();
      }
    }
    const tunnel = await proxy(false);
    try {
      expect(await connectThrough(tunnel.url, `10.1.2.3:443`)).toBe(403);
      expect(tunnel.stops).toEqual([{ kind: 'private', target: 'https://10.1.2.3:443/' }]);
    } finally {
      await tunnel.close();
    }
  });

  it('stops at a name that does not resolve, naming where it led', async () => {
    const stops: ProxyStop[] = [];
    const unresolved = await startGuardedProxy({
      resolve: () => Promise.reject(Object.assign(new Error('not found'), { code: 'ENOTFOUND' })),
      maxBytes: 1024,
      idleSeconds: 5,
      onStop: (stop) => stops.push(stop),
    });
    try {
      expect((await getThrough(unresolved.url, 'http://media.invalid/a.wav')).status).toBe(502);
      expect(stops).toEqual([{ kind: 'unresolved', target: 'http://media.invalid/a.wav' }]);
    } finally {
      await unresolved.close();
    }
  });

  it('relays what the guard lets through, and counts it', async () => {
    const open = await proxy(true);
    try {
      const answer = await getThrough(open.url, `http://127.0.0.1:${port}/page`);
      expect(answer).toEqual({ status: 200, body: 'behind the guard' });
      expect(open.bytes()).toBeGreaterThan('behind the guard'.length);
      expect(await connectThrough(open.url, `127.0.0.1:${port}`)).toBe(200);
      expect(open.stops).toEqual([]);
    } finally {
      await open.close();
    }
  });
});
