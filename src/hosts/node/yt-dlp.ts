import { spawn } from 'node:child_process';

/** yt-dlp's name on PATH, where `--yt-dlp PATH` names none. */
export const DEFAULT_YT_DLP = 'yt-dlp';

/** What a run of yt-dlp left: its exit status, its output, and whether it had to be ended. */
export interface YtDlpRun {
  /** The status it exited with; null when it was ended or never started. */
  status: number | null;
  stdout: string;
  /** Its last lines on stderr, for the error they name (never shown to a user as they are). */
  stderr: string;
  /** The binary could not be started (not there, not executable). */
  missing: boolean;
}

const MAX_STDOUT = 32 * 1024 * 1024;
const MAX_STDERR = 64 * 1024;

/**
 * Runs yt-dlp with `args` in a process group of its own, so that ending it also ends anything
 * it started (a downloader of its own); `signal` ends the whole group at once. Its output is
 * kept up to a bound: an info document can be large, its complaints are read only for their
 * last lines.
 */
export function runYtDlp(binary: string, args: string[], signal: AbortSignal): Promise<YtDlpRun> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve({ status: null, stdout: '', stderr: '', missing: false });
      return;
    }
    const child = spawn(binary, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let missing = false;
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      if (stdout.length < MAX_STDOUT) stdout += text;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr = (stderr + text).slice(-MAX_STDERR);
    });
    const end = () => {
      if (child.pid === undefined || child.exitCode !== null) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    };
    signal.addEventListener('abort', end, { once: true });
    child.on('error', (error: NodeJS.ErrnoException) => {
      missing = error.code === 'ENOENT' || error.code === 'EACCES';
    });
    child.on('close', (status) => {
      signal.removeEventListener('abort', end);
      resolve({ status, stdout, stderr, missing });
    });
  });
}

/**
 * yt-dlp's version (its date, such as `2023.03.04`), or null where `binary` does not run: what
 * a host tells at start-up and in `/health` about links to web pages.
 */
export async function ytDlpVersion(binary: string): Promise<string | null> {
  const run = await runYtDlp(binary, ['--version'], AbortSignal.timeout(30_000));
  const version = run.stdout.trim();
  return run.status === 0 && /^\d{4}\.\d{2}\.\d{2}/.test(version) ? version : null;
}
