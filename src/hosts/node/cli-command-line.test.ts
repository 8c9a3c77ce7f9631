import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../core/contract/errors';
import { runCli as run } from '../../../tools/testing/cli-run';

describe('murmur', () => {
  it('lists every field with its meaning and default in transcribe --help', async () => {
    const { code, stdout } = await run('transcribe', '--help');
    expect(code).toBe(0);
    for (const field of [
      'audio_url',
      'video_url',
      'language_behaviour',
      'language',
      'toggle_noise_reduction',
      'transcription_hint',
      'toggle_diarization',
      'toggle_direct_translate',
      'target_translation_language',
      'webhook_url',
      'diarization_num_speakers',
      'diarization_min_speakers',
      'diarization_max_speakers',
      'output_format',
    ]) {
      expect(stdout).toMatch(new RegExp(`^  --${field}\\b`, 'm'));
    }
    expect(stdout).toContain('Default: automatic single language.');
    expect(stdout).toContain('Default: json.');
  });

  it('rejects a bad command line with exit 2', async () => {
    expect((await run('transcribe', '--endpoint', 'image')).code).toBe(2);
    expect((await run('translate')).code).toBe(2);
  });

  it('runs as the package bin and prints the error body for a bad request', async () => {
    const bin = fileURLToPath(new URL('./murmur.mjs', import.meta.url));
    const error = await promisify(execFile)(process.execPath, [
      bin,
      'transcribe',
      '--output_format',
      'x',
    ]).catch((e: { code: number; stdout: string }) => e);
    expect('code' in error && error.code).toBe(2);
    const body = JSON.parse(error.stdout) as ErrorBody;
    expect(body.error).toBe('invalid_request');
  });
});
