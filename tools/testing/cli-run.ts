/**
 * Runs the `murmur` command line in the test's own process, as a user's shell would call it,
 * and collects what it prints.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ErrorBody } from '../../src/core/contract/errors';
import type { TranscriptionResponse } from '../../src/core/contract/response';
import { main } from '../../src/hosts/node';
import { REPO, TEST_WHISPER_ID } from './ffmpeg-fixtures';

export interface CliOutput {
  /** The exit status. */
  code: number;
  stdout: string;
  stderr: string;
}

/** `murmur ...argv`: its exit status and what it printed. */
export async function runCli(...argv: string[]): Promise<CliOutput> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  return { code, stdout, stderr };
}

/** `murmur ...argv` for a run that fails: with the error body it printed on stdout. */
export async function cliFailure(...argv: string[]): Promise<CliOutput & { body: ErrorBody }> {
  const result = await runCli(...argv);
  const body = JSON.parse(result.stdout) as ErrorBody;
  return { ...result, body };
}

/** `murmur ...argv` with the staged test recognition model (`npm run models:stage`). */
export const runWithTestModel = (...argv: string[]): Promise<CliOutput> =>
  runCli(...argv, '--models', `${REPO}/.models`, '--model', TEST_WHISPER_ID);

/**
 * `murmur align MEDIA SCRIPT ...fields` with the test model, the script written to a file of
 * `dir` first; the response, or an error saying how the run failed.
 */
export async function alignScript(
  dir: string,
  media: string,
  text: string,
  ...fields: string[]
): Promise<TranscriptionResponse> {
  const script = join(dir, `script-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(script, text);
  const result = await runWithTestModel('align', media, script, ...fields);
  if (result.code !== 0) throw new Error(`murmur align exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as TranscriptionResponse;
}
