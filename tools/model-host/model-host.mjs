// Serves a folder of models at the Hugging Face hub's URL layout, so that the app and the CLI
// load models through their normal remote path (progress events, browser cache) without the
// hub: GET {base}/{owner}/{name}/resolve/{revision}/{file} -> {root}/{owner}/{name}/{file}.
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

const TYPES = {
  '.json': 'application/json',
  '.onnx': 'application/octet-stream',
  '.txt': 'text/plain',
  '.bin': 'application/octet-stream',
};

/** A connect-style handler for requests under `base` (e.g. `/hub/`). */
export function modelFolderHandler(root, base = '/') {
  const folder = resolve(root);
  return (req, res, next) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (!url.pathname.startsWith(base)) return next();
    const match = /^([^/]+)\/([^/]+)\/resolve\/[^/]+\/(.+)$/.exec(
      decodeURIComponent(url.pathname.slice(base.length)),
    );
    const file = match ? join(folder, match[1], match[2], match[3]) : null;
    let size = -1;
    try {
      if (file && file.startsWith(folder + sep))
        size = statSync(file).isFile() ? statSync(file).size : -1;
    } catch {
      size = -1;
    }
    // Files may be read by pages that are cross-origin isolated, from any origin.
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    if (size < 0) {
      res.statusCode = 404;
      res.setHeader('Content-Type', 'text/plain');
      res.end(`Not found: ${url.pathname}`);
      return;
    }
    res.statusCode = 200;
    res.setHeader('Content-Type', TYPES[extname(file)] ?? 'application/octet-stream');
    res.setHeader('Content-Length', String(size));
    if (req.method === 'HEAD') return res.end();
    createReadStream(file).pipe(res);
  };
}

/** A stand-alone host: `node tools/model-host/model-host.mjs [folder] [port]`. */
export function startModelHost(root, port = 0) {
  const handler = modelFolderHandler(root, '/');
  const server = createServer((req, res) =>
    handler(req, res, () => {
      res.statusCode = 404;
      res.end();
    }),
  );
  return new Promise((done) => server.listen(port, '127.0.0.1', () => done(server)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = process.argv[2] ?? '.models';
  const server = await startModelHost(root, Number(process.argv[3] ?? 8765));
  const { port } = server.address();
  console.log(`Serving ${resolve(root)} at http://127.0.0.1:${port}/ (hub layout)`);
}
