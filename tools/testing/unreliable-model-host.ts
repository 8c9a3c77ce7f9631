/**
 * A model host in the hub's layout (`/{owner}/{name}/resolve/{revision}/{file}`) that misbehaves
 * on request, for the tests of model downloads: it can cut each file's first connection
 * half-way, leave it hanging half-way, ignore `Range`, or serve a file whose size or sha256 is
 * not the one it announces, or a file cut short whose `Content-Length` says the same short size
 * (with nothing else to check it against), or take connections and never answer. It announces what the hub announces for its large files: the size
 * (`X-Linked-Size`) and the sha256 (`X-Linked-Etag`, and as the `ETag`), and it records every
 * request it gets.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join, resolve, sep } from 'node:path';

export interface UnreliableHostOptions {
  /** Each file's first GET: 'cut' sends half its bytes and drops the connection; 'stall' sends half and then nothing. */
  firstConnection?: 'whole' | 'cut' | 'stall';
  /** The files `firstConnection` applies to (paths within the model); all when not given. */
  only?: string[];
  /** False: a host without ranges, which answers every request with the whole file (200). */
  ranges?: boolean;
  /** Files (paths within the model, e.g. `onnx/encoder_model_quantized.onnx`) served damaged. */
  damaged?: Record<string, 'short' | 'sha256' | 'short-length'>;
  /** True: a host that takes each connection and never answers. */
  silent?: boolean;
}

export interface HostRequest {
  /** GET, or HEAD where a reader only asks a file's size (the Models list does). */
  method: string;
  /** The file's path within its model. */
  file: string;
  model: string;
  range: string | null;
  status: number;
}

export interface UnreliableHost {
  origin: string;
  /** The host's base URL, as a model host setting takes it (ends with `/`). */
  url: string;
  requests: HostRequest[];
  /** Requests for one file. */
  requestsFor(file: string): HostRequest[];
  close(): Promise<void>;
}

const EXPOSED = 'Content-Length, Content-Range, Accept-Ranges, ETag, X-Linked-Etag, X-Linked-Size';

export async function startUnreliableHost(
  root: string,
  options: UnreliableHostOptions = {},
): Promise<UnreliableHost> {
  const folder = resolve(root);
  const requests: HostRequest[] = [];
  const served = new Set<string>();
  const sockets = new Set<Socket>();
  const hashes = new Map<string, string>();
  const sha256Of = (path: string) => {
    let hash = hashes.get(path);
    if (hash === undefined) {
      hash = createHash('sha256').update(readFileSync(path)).digest('hex');
      hashes.set(path, hash);
    }
    return hash;
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    if (options.silent) return;
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', EXPOSED);
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Headers', 'Range');
      res.writeHead(204).end();
      return;
    }
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://host').pathname);
    const match = /^\/([^/]+\/[^/]+)\/resolve\/[^/]+\/(.+)$/.exec(path);
    const range = req.headers.range ?? null;
    const log = (status: number) =>
      requests.push({
        method: req.method ?? 'GET',
        file: match?.[2] ?? path,
        model: match?.[1] ?? '',
        range,
        status,
      });
    const full = match ? join(folder, match[1]!, match[2]!) : null;
    let size = -1;
    try {
      if (full && full.startsWith(folder + sep) && statSync(full).isFile())
        size = statSync(full).size;
    } catch {
      size = -1;
    }
    if (!match || !full || size < 0) {
      log(404);
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end(`Not found: ${path}`);
      return;
    }
    const file = match[2]!;
    const damage = options.damaged?.[file];
    const real = sha256Of(full);
    const announced = damage === 'sha256' ? createHash('sha256').update(real).digest('hex') : real;
    let bytes = readFileSync(full);
    // A damaged file is served whole as far as HTTP can tell: it is the file that is wrong.
    if (damage === 'short' || damage === 'short-length')
      bytes = bytes.subarray(0, Math.max(0, bytes.length - 1000));
    if (damage !== 'short-length') {
      res.setHeader('ETag', `"${announced}"`);
      res.setHeader('X-Linked-Etag', `"${announced}"`);
      res.setHeader('X-Linked-Size', String(size));
    }
    res.setHeader('Content-Type', 'application/octet-stream');
    let start = 0;
    let status = 200;
    const asked =
      options.ranges === false || range === null ? null : /^bytes=(\d+)-(\d*)$/.exec(range);
    if (options.ranges !== false) res.setHeader('Accept-Ranges', 'bytes');
    let end = bytes.length - 1;
    if (asked) {
      start = Number(asked[1]);
      if (asked[2]) end = Math.min(end, Number(asked[2]));
      if (start > end) {
        log(416);
        res.writeHead(416, { 'Content-Range': `bytes */${bytes.length}` }).end();
        return;
      }
      status = 206;
      res.setHeader('Content-Range', `bytes ${start}-${end}/${bytes.length}`);
    }
    const body = bytes.subarray(start, end + 1);
    log(status);
    res.writeHead(status, { 'Content-Length': String(body.length) });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    const key = `${match[1]}/${file}`;
    // A request for the first byte alone is a reader's probe of the size, not a download.
    const probe = range === 'bytes=0-0';
    const first = !served.has(key) && !asked && !probe;
    if (!probe) served.add(key);
    const mode = options.firstConnection ?? 'whole';
    const chosen = options.only === undefined || options.only.includes(file);
    if (first && chosen && mode !== 'whole' && body.length > 1) {
      res.write(body.subarray(0, Math.floor(body.length / 2)));
      // Sent: the half is on the wire before the connection goes.
      if (mode === 'cut') setTimeout(() => res.destroy(), 50);
      return;
    }
    res.end(body);
  };

  const server: Server = createServer(handle);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: `${origin}/`,
    requests,
    requestsFor: (file) => requests.filter((r) => r.file === file),
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}
