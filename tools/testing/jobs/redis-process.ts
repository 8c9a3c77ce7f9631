import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A port nothing listens on now (opened, then closed). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Debian's redis-server on a free port, with its own folder and its append-only file on (as a
 * deployment that must not lose queued jobs runs it), stopped and started again on the same
 * port and folder by `restart`.
 */
export async function startRedis() {
  const dir = mkdtempSync(join(tmpdir(), 'murmur-redis-'));
  const port = await freePort();
  let child: ChildProcess;
  const start = async () => {
    child = spawn(
      '/usr/bin/redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--appendonly',
        'yes',
        '--save',
        '',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (/Ready to accept connections/.test(out)) resolve();
      });
      child.on('exit', (code) => reject(new Error(`redis-server exited (${code}): ${out}`)));
    });
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      // SIGTERM: Redis writes its append-only file out and exits.
      child.kill('SIGTERM');
    });
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    dir,
    stop,
    async restart() {
      await stop();
      await start();
    },
    async remove() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
