import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = resolve(import.meta.dirname, '..', '..');
const run = promisify(execFile);

/** The output of a command run in `cwd`, whatever its exit status. */
async function output(command: string, args: string[], cwd: string) {
  // As a newcomer's shell runs it: without the NODE_ENV=test the test runner sets (under which
  // the build takes React's development copy).
  const env = { ...process.env };
  delete env.NODE_ENV;
  const { stdout, stderr } = await run(command, args, {
    cwd,
    env,
    maxBuffer: 64 * 1024 * 1024,
  }).catch((e: { stdout: string; stderr: string }) => e);
  return { stdout, stderr };
}

/**
 * The commands a newcomer runs first print nothing but their own output: no npm config it does
 * not know, no dependency asking for a newer Node than `engines` promises, no install scripts
 * left to review, no bundler report.
 */
describe('the first commands on a fresh clone are quiet', () => {
  const fresh = mkdtempSync(join(tmpdir(), 'murmur-clone-'));
  afterAll(() => rmSync(fresh, { recursive: true, force: true }));

  it('npm install plans the locked tree without a warning', async () => {
    // The project's npm files alone, without node_modules: what a fresh clone installs.
    for (const file of ['package.json', 'package-lock.json', '.npmrc']) {
      if (existsSync(join(REPO, file))) copyFileSync(join(REPO, file), join(fresh, file));
    }
    const { stdout, stderr } = await output(
      'npm',
      ['install', '--dry-run', '--prefer-offline', '--no-audit', '--no-fund'],
      fresh,
    );
    expect(`${stdout}${stderr}`).not.toMatch(/npm warn/i);
    expect(stdout).toMatch(/added \d+ packages/);
  });

  it('npx murmur --help prints the overview of the commands and nothing else', async () => {
    const { stdout, stderr } = await output('npx', ['--no-install', 'murmur', '--help'], REPO);
    expect(stdout).toMatch(/^Usage: murmur COMMAND /);
    expect(stderr).toBe('');
  });

  it('the build prints no timing report and no warning', async () => {
    const outDir = join(fresh, 'dist');
    const { stdout, stderr } = await output(
      'npx',
      ['--no-install', 'vite', 'build', '--outDir', outDir, '--emptyOutDir'],
      REPO,
    );
    expect(stdout).toContain('built in');
    expect(`${stdout}${stderr}`).not.toMatch(/TIMINGS|npm warn/);
    // Neither a module left out for the browser nor a page chunk over the bundler's size limit.
    expect(`${stdout}${stderr}`).not.toMatch(/externalized|\(!\)|larger than|warning/i);
  }, 180_000);
});
