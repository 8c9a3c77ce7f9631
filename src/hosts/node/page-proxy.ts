import { lookup } from 'node:dns';
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { connect, Socket, type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { publicLookup } from './address-guard';

/**
 * The address a host name is to be reached at; rejects with `MURMUR_PRIVATE_ADDRESS` for one
 * that is not public while the guard is on.
 */
export type ProxyResolve = (host: string) => Promise<string>;

/** Names resolved as `audio_url`'s are: through the address guard unless private is allowed. */
export function guardedResolve(allowPrivate: boolean): ProxyResolve {
  const find = allowPrivate ? lookup : publicLookup;
  return (host) =>
    new Promise((resolve, reject) => {
      find(host.replace(/^\[|\]$/g, ''), {}, (error, address) =>
        error ? reject(error) : resolve(address as string),
      );
    });
}

export interface ProxyOptions {
  resolve: ProxyResolve;
  /** Most bytes relayed to the client in all, every connection together. */
  maxBytes: number;
  /** The longest a server may send nothing while a connection to it is open. */
  idleSeconds: number;
  /** Told once when the proxy gives up: the reason, and what it was reaching. */
  onStop: (stop: ProxyStop) => void;
}

export type ProxyStop =
  | { kind: 'private'; target: string }
  | { kind: 'unresolved'; target: string }
  /** Nothing listens at the address, or it cannot be reached (the system's own reason). */
  | { kind: 'unreachable'; target: string; refused: boolean }
  | { kind: 'too-large' }
  | { kind: 'idle'; target: string };

export interface GuardedProxy {
  /** The proxy's own address, `http://127.0.0.1:PORT`. */
  url: string;
  /** Bytes relayed from servers to the client so far. */
  bytes(): number;
  close(): Promise<void>;
}

/**
 * A forward proxy for one client (yt-dlp) that may reach only what `audio_url` may: every host
 * it is asked for (a page, a manifest, the media, each redirect's target, a CDN) is resolved
 * through `resolve` and connected to at the address checked, so no connection bypasses the
 * guard. CONNECT carries https, an absolute-form request plain http; redirects are passed back
 * to the client, which asks for the next address through the proxy again. It also counts the
 * bytes it relays and watches every server for silence, since it sees all that the client does.
 */
export async function startGuardedProxy(options: ProxyOptions): Promise<GuardedProxy> {
  const sockets = new Set<Duplex>();
  let relayed = 0;
  let stopped = false;
  const stop = (why: ProxyStop) => {
    if (stopped) return;
    stopped = true;
    options.onStop(why);
    for (const socket of sockets) socket.destroy();
  };
  const track = <S extends Duplex>(socket: S): S => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    return socket;
  };
  const count = (chunk: Buffer) => {
    relayed += chunk.length;
    if (relayed > options.maxBytes) stop({ kind: 'too-large' });
  };
  /**
   * Connects to `host:port` at its checked address; null where it cannot, and why where the
   * guard refused it or the name does not resolve (the proxy stops once the client is told).
   */
  const open = async (
    host: string,
    port: number,
    target: string,
  ): Promise<Socket | ProxyStop | null> => {
    let address: string;
    try {
      address = await options.resolve(host);
    } catch (thrown) {
      const code = (thrown as NodeJS.ErrnoException).code;
      if (code === 'MURMUR_PRIVATE_ADDRESS') return { kind: 'private', target };
      return code === 'ENOTFOUND' ? { kind: 'unresolved', target } : null;
    }
    if (stopped) return null;
    const upstream = track(connect({ host: address, port }));
    upstream.setTimeout(options.idleSeconds * 1000, () => stop({ kind: 'idle', target }));
    upstream.on('data', count);
    // Told only once connected: a connection refused is the media's answer, said as such,
    // not a relay that closes without a word.
    return new Promise((resolve) => {
      upstream.once('connect', () => resolve(upstream));
      upstream.once('error', (thrown: NodeJS.ErrnoException) =>
        resolve({ kind: 'unreachable', target, refused: thrown.code === 'ECONNREFUSED' }),
      );
    });
  };

  const server = createServer((request: IncomingMessage, response) => {
    track(request.socket);
    let url: URL;
    try {
      url = new URL(request.url ?? '');
      if (url.protocol !== 'http:') throw new Error('not http');
    } catch {
      response.writeHead(400).end();
      return;
    }
    const port = Number(url.port || 80);
    void open(url.hostname, port, url.href).then((upstream) => {
      if (!(upstream instanceof Socket)) {
        return response
          .writeHead(upstream?.kind === 'private' ? 403 : 502)
          .end(() => upstream && stop(upstream));
      }
      const headers: Record<string, string | string[] | undefined> = {
        ...request.headers,
        connection: 'close',
      };
      delete headers['proxy-connection'];
      const forward = httpRequest({
        createConnection: () => upstream,
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers,
      });
      forward.on('response', (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      forward.on('error', () => response.destroy());
      request.pipe(forward);
    });
  });
  server.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(request.url ?? '');
    if (match === null) return client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    const target = `https://${match[1]}:${match[2]}/`;
    void open(match[1]!, Number(match[2]), target).then((upstream) => {
      if (!(upstream instanceof Socket)) {
        const answer = upstream?.kind === 'private' ? '403 Forbidden' : '502 Bad Gateway';
        return client.end(`HTTP/1.1 ${answer}\r\n\r\n`, () => upstream && stop(upstream));
      }
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bytes: () => relayed,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
