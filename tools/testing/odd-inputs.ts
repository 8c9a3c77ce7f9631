/**
 * The catalogue of bad and odd inputs run through the CLI, each with its expected answer: the
 * spec's error body with its code, or a valid result. None may hang: every case runs under a
 * deadline of its own.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { TranscriptionResponse } from '../../src/core/contract/response';
import { main } from '../../src/hosts/node';
import { REPO, TEST_WHISPER_ID } from './ffmpeg-fixtures';
import { sentence, spokenFile } from './speech';

/** The staged test models' folder and the recognition model in it. */
export const MODELS = join(REPO, '.models');
export const MODEL = TEST_WHISPER_ID;
const HANG_SECONDS = 45;

export type Answer =
  | { error: string; status: number; message: RegExp }
  | { result: (response: TranscriptionResponse) => void };

export interface Case {
  name: string;
  /** The command line after `transcribe`, made once the fixtures exist. */
  argv: () => string[];
  answer: Answer;
}

/** `murmur transcribe ...argv` with the test model: its status and the JSON it printed. */
export async function answerOf(argv: string[]): Promise<{ code: number; json: unknown }> {
  let out = '';
  const run = main(
    ['transcribe', ...argv, '--models', MODELS, '--model', MODEL],
    { stdout: (t) => (out += t), stderr: () => undefined },
    { engine: { fetchTimeoutSeconds: 1 } },
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('no answer: it hangs')), HANG_SECONDS * 1000);
  });
  const code = await Promise.race([run, hang]).finally(() => clearTimeout(timer));
  return { code, json: JSON.parse(out) };
}

/** What a response's segments say, in one line. */
export const textOf = (r: TranscriptionResponse) =>
  r.prediction_raw.transcription.map((s) => s.transcription).join(' ');

/** What a response says of the file it was given. */
export const fileOf = (r: TranscriptionResponse) =>
  r.prediction_raw.metadata.provided_file_metadata;

/** `ffmpeg ...args dir/name`: the path of the file made. */
export function ffmpegInto(dir: string, name: string, args: string[]): string {
  const out = join(dir, name);
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args, out]);
  return out;
}

/** `data` written as dir/name, whatever characters the name holds: the path of the file. */
export function writeInto(dir: string, name: string, data: string | Uint8Array): string {
  const out = join(dir, name);
  execFileSync('tee', [out], { input: data, stdio: ['pipe', 'ignore', 'inherit'] });
  return out;
}

/** Two generated English sentences, the speech the cases cut, resample and mix. */
export const oddInputsSpeech = (dir: string) =>
  spokenFile(dir, 'speech', [
    { language: 'en', text: sentence('en', 501, 9) },
    { language: 'en', text: sentence('en', 502, 9) },
  ]).path;
