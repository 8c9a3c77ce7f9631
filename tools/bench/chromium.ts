/**
 * Running a benchmark in Chromium: the harness pages built with MURMUR_HARNESS=1 and served
 * by `vite preview` (cross-origin isolated), Debian's Chromium launched by Playwright, and the
 * resident memory of Chromium's processes sampled from /proc.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext } from '@playwright/test';
import { REPO, rssMb } from './bench-media';

export function buildHarness(): string {
  // Outside the repository, so that linters never see the built files; MURMUR_BENCH_DIST lets
  // two checkouts benchmark at once.
  const outDir = process.env.MURMUR_BENCH_DIST ?? join(tmpdir(), 'murmur-bench-dist');
  execFileSync(
    'npx',
    ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'],
    {
      cwd: REPO,
      env: { ...process.env, MURMUR_HARNESS: '1' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  return outDir;
}

/** `vite preview` of a built folder; resolves once `probePath` answers. */
export async function startPreview(outDir: string, port: number, probePath: string) {
  const base = `http://127.0.0.1:${port}`;
  // Another server already on the port (say, one left by a benchmark that was killed) would
  // answer the probe with an older build.
  const taken = await fetch(base).then(
    () => true,
    () => false,
  );
  if (taken)
    throw new Error(`Port ${port} is taken: stop what serves it, or set MURMUR_BENCH_PORT.`);
  const server = spawn(
    'npx',
    [
      'vite',
      'preview',
      '--outDir',
      outDir,
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--strictPort',
    ],
    { cwd: REPO, stdio: 'ignore', detached: true },
  );
  // With --strictPort a port taken meanwhile ends the server at once.
  let exited = false;
  server.once('exit', () => (exited = true));
  for (let i = 0; ; i++) {
    if (exited) {
      throw new Error(`vite preview could not start on port ${port}: is another server on it?`);
    }
    try {
      if ((await fetch(`${base}${probePath}`)).ok) break;
    } catch {
      // not up yet
    }
    if (i > 120) throw new Error('vite preview did not start');
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    base,
    stop: () => {
      try {
        if (server.pid) process.kill(-server.pid);
      } catch {
        // already gone
      }
    },
  };
}

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
}

/**
 * Chromium with a profile on disk in a temporary folder, as a user's browser has: the
 * origin-private file system is then written to disk (an incognito profile keeps it in
 * memory). `close` removes the folder.
 */
export async function launchChromiumProfile(): Promise<{
  context: BrowserContext;
  close(): Promise<void>;
}> {
  const folder = mkdtempSync(join(tmpdir(), 'murmur-bench-profile-'));
  const context = await chromium.launchPersistentContext(folder, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Chromium's processes among the descendants of `root`. */
export function chromiumProcesses(root: number): { pid: number; type: string }[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone
    }
  }
  const out: { pid: number; type: string }[] = [];
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      let cmdline = '';
      try {
        cmdline = readFileSync(`/proc/${child}/cmdline`, 'utf8');
      } catch {
        continue;
      }
      if (!/chrom/i.test(cmdline.split('\0')[0] ?? '')) continue;
      out.push({ pid: child, type: /--type=([\w-]+)/.exec(cmdline)?.[1] ?? 'browser' });
      walk(child);
    }
  };
  walk(root);
  return out;
}

/**
 * Samples Chromium's memory until stopped: the peak of its renderers, of all its processes
 * together, and of each process (keyed `type:pid`), in MB.
 */
export function sampleChromiumMemory(intervalMs = 200) {
  let peakRenderer = 0;
  let peakTotal = 0;
  const peakByProcess = new Map<string, number>();
  const timer = setInterval(() => {
    let total = 0;
    for (const p of chromiumProcesses(process.pid)) {
      const rss = rssMb(p.pid);
      total += rss;
      const key = `${p.type}:${p.pid}`;
      peakByProcess.set(key, Math.max(peakByProcess.get(key) ?? 0, rss));
      if (p.type === 'renderer') peakRenderer = Math.max(peakRenderer, rss);
    }
    peakTotal = Math.max(peakTotal, total);
  }, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      return { peakRendererMb: peakRenderer, peakTotalMb: peakTotal, peakByProcess };
    },
  };
}
