import { execFileSync, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../core/contract/errors';
import { scratchDir } from '../../../tools/testing/speech';
import { REPO, TEST_WHISPER_ID } from '../../../tools/testing/ffmpeg-fixtures';

/**
 * Ctrl-C wins whenever it comes until the result is written: at each point of a run (while
 * speech is recognised, and late, once it is: speakers, translation), a real `murmur` process
 * that gets SIGINT prints the `cancelled` error body, no result, and ends with the shell's
 * status for the signal.
 */
const BIN = fileURLToPath(new URL('./murmur.mjs', import.meta.url));
const jfk = fileURLToPath(new URL('../../../../shared/media/speech/jfk.wav', import.meta.url));
const MODELS = [
  '--models',
  `${REPO}/.models`,
  '--model',
  TEST_WHISPER_ID,
  '--segmentation-model',
  'murmur-test/segmentation-synth',
  '--embedding-model',
  'murmur-test/embedding-synth',
  '--translation-model',
  'murmur-test/m2m100-synth',
];
let media = '';

beforeAll(() => {
  // Four channels of speech over 90 s: every stage has work enough to be interrupted in.
  media = join(scratchDir(), 'talk.flac');
  execFileSync('ffmpeg', [
    '-hide_banner',
    '-loglevel',
    'error',
    '-stream_loop',
    '7',
    '-i',
    jfk,
    '-af',
    'pan=quad|c0=c0|c1=c0|c2=c0|c3=c0',
    media,
  ]);
});

/** Runs murmur, sends `signal` when stderr first has a line matching `at`, and waits for it. */
async function interruptAt(at: RegExp, signal: NodeJS.Signals = 'SIGINT') {
  const child = spawn(process.execPath, [
    BIN,
    'transcribe',
    media,
    ...MODELS,
    '--toggle_diarization',
    'true',
    '--toggle_direct_translate',
    'true',
    '--target_translation_language',
    'spanish',
    '--progress',
  ]);
  let stdout = '';
  let stderr = '';
  let sent = false;
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (!sent && at.test(stderr)) {
      sent = true;
      child.kill(signal);
    }
  });
  const [code, ended] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on('exit', (c, s) => resolve([c, s])),
  );
  // The status a shell sees: a process ended by a signal is 128 + its number.
  const status = code ?? 128 + constants.signals[ended!];
  return { sent, status, stdout, stderr };
}

describe('murmur transcribe interrupted', () => {
  it.each([
    ['while speech is recognised', /progress: recognise [3-9]\d%/],
    ['once recognition is done, while speakers are found', /progress: diarize/],
    ['late, while the transcript is translated', /progress: translate/],
  ])(
    'by Ctrl-C %s, prints no result and ends with status 130',
    async (_, at) => {
      const { sent, status, stdout, stderr } = await interruptAt(at);
      expect(sent, stderr).toBe(true);
      expect(status).toBe(130);
      const body = JSON.parse(stdout) as ErrorBody;
      expect(body).toMatchObject({ error: 'cancelled', statusCode: 499 });
      expect(stdout).not.toContain('prediction');
      expect(stderr).toContain('murmur: The transcription was cancelled.\n');
    },
    300_000,
  );

  it('by SIGTERM once recognition is done, prints no result and ends with status 143', async () => {
    const { sent, status, stdout } = await interruptAt(/progress: diarize/, 'SIGTERM');
    expect(sent).toBe(true);
    expect(status).toBe(143);
    expect(JSON.parse(stdout)).toMatchObject({ error: 'cancelled' });
  }, 300_000);
});
