import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { REPO, TEST_WHISPER_ID } from '../ffmpeg-fixtures';

/** `murmur serve` run as its own process on the test models, as an operator would start it. */
export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** Log lines (JSON) written so far on stdout. */
  logs: () => Record<string, unknown>[];
  /** The log lines as written (a key written twice shows here, not in `logs`). */
  logLines: () => string[];
  stderr: () => string;
  exited: Promise<number | null>;
  /** Kilobytes of resident memory now (VmRSS), from /proc. */
  rssKb: () => Promise<number>;
  stop: () => Promise<number | null>;
}

export async function startServe(
  options: readonly string[],
  env: Record<string, string> = {},
): Promise<ServeProcess> {
  const bin = join(REPO, 'src', 'hosts', 'node', 'murmur.mjs');
  const child = spawn(
    process.execPath,
    [
      bin,
      'serve',
      '--port',
      '0',
      '--models',
      join(REPO, '.models'),
      '--model',
      TEST_WHISPER_ID,
      ...options,
    ],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      const match = /listening on (http:\/\/\S+)/.exec(err);
      if (match) resolve(match[1]!);
    });
    void exited.then((code) => reject(new Error(`murmur serve exited (${code}): ${err}`)));
  });
  const { readFile } = await import('node:fs/promises');
  return {
    url,
    child,
    logs: () =>
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    logLines: () => out.split('\n').filter((l) => l.startsWith('{')),
    stderr: () => err,
    exited,
    rssKb: async () => {
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}
