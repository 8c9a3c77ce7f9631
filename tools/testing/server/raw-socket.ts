import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  /** The status of the answer, or null when the connection closed without one. */
  status: number | null;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from the connection to its close. */
  ms: number;
}

/**
 * A client on a raw socket to 127.0.0.1, for what curl will not do (stall mid-headers, send a
 * byte now and then): `talk` writes what it wants, when it wants; the answer is whatever comes
 * back before the server closes the connection.
 */
export function rawExchange(
  url: string,
  talk: (socket: Socket) => void | Promise<void>,
): Promise<RawAnswer> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (d: Buffer) => (received += d.toString('latin1')));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      // A server that answers before the body is all sent (a 413) and closes makes the next
      // write fail; its answer may still be on the way in: the close reads what came.
      if (e.code === 'EPIPE' || e.code === 'ECONNRESET') return;
      if (received === '') reject(e);
    });
    socket.on('close', () => {
      const end = received.indexOf('\r\n\r\n');
      const head = (end === -1 ? received : received.slice(0, end)).split('\r\n');
      const status = Number(/^HTTP\/[\d.]+ (\d{3})/.exec(head[0] ?? '')?.[1] ?? NaN);
      const headers: Record<string, string> = {};
      for (const line of head.slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      let body = end === -1 ? '' : received.slice(end + 4);
      // A chunked answer (Fastify's for a JSON body it streams): the chunks joined.
      if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
        let joined = '';
        for (let at = 0; ;) {
          const eol = body.indexOf('\r\n', at);
          const size = parseInt(body.slice(at, eol), 16);
          if (!(size > 0)) break;
          joined += body.slice(eol + 2, eol + 2 + size);
          at = eol + 2 + size + 2;
        }
        body = joined;
      }
      resolve({
        status: Number.isNaN(status) ? null : status,
        headers,
        body,
        ms: performance.now() - started,
      });
    });
    socket.on('connect', () => {
      Promise.resolve(talk(socket)).catch((e: unknown) => {
        socket.destroy();
        reject(e as Error);
      });
    });
  });
}

/** The head of a multipart upload to `path` with the given boundary; the body follows. */
export function uploadHead(
  path: string,
  boundary: string,
  length: number | 'chunked',
  extra = '',
): string {
  return (
    `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\n` +
    `content-type: multipart/form-data; boundary=${boundary}\r\n` +
    (length === 'chunked' ? 'transfer-encoding: chunked\r\n' : `content-length: ${length}\r\n`) +
    `${extra}\r\n`
  );
}
