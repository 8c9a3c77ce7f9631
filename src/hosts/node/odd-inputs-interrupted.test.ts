import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../core/contract/errors';
import { ffmpegInto, MODEL, MODELS, oddInputsSpeech } from '../../../tools/testing/odd-inputs';
import { scratchDir } from '../../../tools/testing/speech';

/** A real `murmur` process interrupted while it loads or works answers `cancelled`. */
const BIN = fileURLToPath(new URL('./murmur.mjs', import.meta.url));
let dir = '';
let speech = '';

const ffmpeg = (name: string, args: string[]) => ffmpegInto(dir, name, args);

beforeAll(() => {
  dir = scratchDir();
  speech = oddInputsSpeech(dir);
});

describe('bad and odd inputs, each with its answer', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)('answers `cancelled` when interrupted by %s', async (signal, status) => {
    // Long enough that no machine finishes it before the signal comes.
    const long = ffmpeg('longer.wav', ['-stream_loop', '80', '-i', speech]);
    const child = spawn(process.execPath, [
      BIN,
      'transcribe',
      long,
      '--models',
      MODELS,
      '--model',
      MODEL,
    ]);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    // Interrupted while it loads or works: either way the answer is the same.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    child.kill(signal);
    const [code, ended] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.on('exit', (c, s) => resolve([c, s])),
    );
    // The status a shell sees: a process ended by a signal is 128 + its number.
    expect(code ?? 128 + constants.signals[ended!]).toBe(status);
    const body = JSON.parse(out) as ErrorBody;
    expect(body).toMatchObject({ error: 'cancelled', statusCode: 499 });
    expect(err).toContain('cancelled');
  });
});
