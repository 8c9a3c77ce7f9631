import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../core/contract/errors';
import { cliFailure as failure, runCli as run } from '../../../tools/testing/cli-run';
import { REPO, sharedMedia, TEST_WHISPER_ID } from '../../../tools/testing/ffmpeg-fixtures';
import { deadUrl } from '../../../tools/testing/server/receiver';

const jfk = sharedMedia('speech/jfk.wav');

describe('murmur transcribe: error sentences name the flags to change', () => {
  const models = `${REPO}/.models`;

  it('a model the host lacks names --model and --models, not a panel of the page', async () => {
    const { code, stderr } = await run(
      'transcribe',
      jfk,
      '--models',
      models,
      '--model',
      'murmur-test/no-such-model',
    );
    expect(code).toBe(1);
    expect(stderr).toContain('The recognition model "murmur-test/no-such-model" could not be');
    expect(stderr).toContain(
      'Check the model (--model ID) and the model host (--models DIR|URL).\n',
    );
    expect(stderr).not.toContain('under Models');
  });

  it('translation without its model names --translation-model and --toggle_direct_translate', async () => {
    const { stderr, body } = await failure(
      'transcribe',
      jfk,
      '--models',
      models,
      '--model',
      TEST_WHISPER_ID,
      '--translation-model',
      'murmur-test/no-such-translator',
      '--toggle_direct_translate',
      'true',
      '--target_translation_language',
      'english',
    );
    expect(body.statusCode).toBe(503);
    expect(stderr).toContain('The translation model "murmur-test/no-such-translator"');
    expect(stderr).toContain(
      'Check the model (--translation-model ID) and the model host (--models DIR|URL). Or transcribe without --toggle_direct_translate true.\n',
    );
  });

  it('a field written with dashes points to the field with underscores, on stderr only', async () => {
    expect(await run('transcribe', jfk, '--output-format', 'srt')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'murmur: Unknown option --output-format. Did you mean --output_format? See "murmur transcribe --help".\n',
    });
  });

  it('a missing file is said once, with its path', async () => {
    const { stderr, body } = await failure('transcribe', '/nonexistent/talk.wav');
    expect(stderr).toBe('murmur: No readable file at "/nonexistent/talk.wav".\n');
    expect(body.validation_errors).toEqual(['audio: No readable file at "/nonexistent/talk.wav".']);
  });

  it('a file that cannot be read is said as a missing one is, exit 2', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'murmur-cli-'));
    try {
      // The folder may be looked into by anyone: only the file is closed.
      chmodSync(folder, 0o755);
      const locked = join(folder, 'locked.wav');
      copyFileSync(jfk, locked);
      chmodSync(locked, 0o000);
      // A privileged process reads whatever the permission bits say: the CLI then runs as nobody.
      const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
      const bin = fileURLToPath(new URL('./murmur.mjs', import.meta.url));
      const error = await promisify(execFile)(
        process.execPath,
        [bin, 'transcribe', locked],
        asNobody,
      ).catch((e: { code: number; stdout: string; stderr: string }) => e);
      expect('code' in error && error.code).toBe(2);
      expect(error.stderr).toBe(`murmur: No readable file at "${locked}".\n`);
      const body = JSON.parse(error.stdout) as ErrorBody;
      expect([body.statusCode, body.error]).toEqual([422, 'invalid_request']);
      expect(body.validation_errors).toEqual([`audio: No readable file at "${locked}".`]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('a folder given as the file is said as a missing file is', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'murmur-cli-'));
    try {
      const { code, stderr, body } = await failure('transcribe', folder);
      expect(code).toBe(2);
      expect(stderr).toBe(`murmur: No readable file at "${folder}".\n`);
      expect(body.statusCode).toBe(422);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('an unreachable model host is said so, not "fetch failed"', async () => {
    const { stderr, body } = await failure(
      'transcribe',
      jfk,
      '--models',
      `${new URL(await deadUrl()).origin}/hub/`,
      '--model',
      TEST_WHISPER_ID,
    );
    expect(body.error).toBe('engine_unavailable');
    expect(stderr).toContain('the host could not be reached');
    expect(stderr).not.toContain('fetch failed');
    expect(stderr).toContain('(--models DIR|URL)');
  });

  it('an unreachable media link says why', async () => {
    const url = `${new URL(await deadUrl()).origin}/talk.mp3`;
    const { stderr } = await failure('transcribe', '--audio_url', url);
    expect(stderr).toBe(
      `murmur: ${url} could not be fetched: the server refused the connection.\n`,
    );
  });
});
