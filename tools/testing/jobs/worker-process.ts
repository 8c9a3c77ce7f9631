import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { REPO, TEST_WHISPER_ID } from '../ffmpeg-fixtures';

/** `murmur worker` run as its own process on the test models, as an operator would start it. */
export interface WorkerProcess {
  child: ChildProcess;
  pid: number;
  /** Log lines (JSON) written so far on stdout. */
  logs: () => Record<string, unknown>[];
  stderr: () => string;
  exited: Promise<number | null>;
  /** Its `/metrics` address, when started with `--metrics`. */
  metricsUrl: string | null;
  stop: () => Promise<number | null>;
}

export async function startWorker(options: readonly string[], env: Record<string, string> = {}) {
  const bin = join(REPO, 'src', 'hosts', 'node', 'murmur.mjs');
  const child = spawn(
    process.execPath,
    [bin, 'worker', '--models', join(REPO, '.models'), '--model', TEST_WHISPER_ID, ...options],
    { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      err += d.toString();
      if (/taking jobs from/.test(err)) resolve();
    });
    void exited.then((code) => reject(new Error(`murmur worker exited (${code}): ${err}`)));
  });
  const worker: WorkerProcess = {
    child,
    pid: child.pid!,
    logs: () =>
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>),
    stderr: () => err,
    exited,
    metricsUrl: /metrics at (http:\/\/\S+)/.exec(err)?.[1] ?? null,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  return worker;
}
