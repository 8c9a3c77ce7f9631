/**
 * Runs `murmur transcribe` with diarization on a file, as a user would (the package bin in a
 * child process), and reads the speakers of its answer as turns a diarization score takes.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ErrorBody } from '../../src/core/contract/errors';
import type { SpeakerSpan, TranscriptionResponse } from '../../src/core/contract/response';
import type { SpeakerTurn } from '../../src/core/evaluation/rttm';

export const MURMUR_BIN = fileURLToPath(
  new URL('../../src/hosts/node/murmur.mjs', import.meta.url),
);

/** The test models, under the ids `npm run models:stage` gives them in `.models`. */
export const TEST_DIARIZATION_MODELS = {
  model: 'murmur-test/whisper-synth',
  segmentationModel: 'murmur-test/segmentation-synth',
  embeddingModel: 'murmur-test/embedding-synth',
};

/** The test models, with the folder `npm run models:stage` puts them in. */
export const STAGED_DIARIZATION_MODELS = {
  models: fileURLToPath(new URL('../../.models', import.meta.url)),
  ...TEST_DIARIZATION_MODELS,
};

export interface DiarizationModels {
  /** `--models`: a folder in the hub's layout or a model host URL; the CLI's default if absent. */
  models?: string;
  model?: string;
  segmentationModel?: string;
  embeddingModel?: string;
}

export interface CliRun {
  /** The exit status. */
  code: number;
  stdout: string;
  stderr: string;
  seconds: number;
  /** The response, when the run succeeded with JSON output. */
  response?: TranscriptionResponse;
  /** The error body, when the run failed with one. */
  error?: ErrorBody;
}

/** The CLI's model options for `models`. */
export function modelArgs(models: DiarizationModels): string[] {
  const args: string[] = [];
  if (models.models !== undefined) args.push('--models', models.models);
  if (models.model !== undefined) args.push('--model', models.model);
  if (models.segmentationModel !== undefined) {
    args.push('--segmentation-model', models.segmentationModel);
  }
  if (models.embeddingModel !== undefined) args.push('--embedding-model', models.embeddingModel);
  return args;
}

/** `murmur transcribe FILE ...args`, its output and what it printed, read. */
export function runMurmur(
  file: string,
  args: readonly string[],
  timeoutMs = 600_000,
): Promise<CliRun> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [MURMUR_BIN, 'transcribe', file, ...args],
      { maxBuffer: 1 << 28, timeout: timeoutMs },
      (failure, stdout, stderr) => {
        const code = failure ? (typeof failure.code === 'number' ? failure.code : 1) : 0;
        const run: CliRun = { code, stdout, stderr, seconds: (performance.now() - started) / 1000 };
        try {
          const parsed = JSON.parse(stdout) as unknown;
          if (code === 0 && parsed && typeof parsed === 'object' && 'prediction_raw' in parsed) {
            run.response = parsed as TranscriptionResponse;
          } else if (parsed && typeof parsed === 'object' && 'error' in parsed) {
            run.error = parsed as ErrorBody;
          }
        } catch {
          // Not JSON: txt, srt or vtt output, or a crash; the caller reads stdout and stderr.
        }
        resolve(run);
      },
    );
  });
}

export interface DiarizeOptions extends DiarizationModels {
  numSpeakers?: number;
  /** More request fields, `--name value` pairs. */
  fields?: readonly string[];
  timeoutMs?: number;
}

/** Transcribes `file` with toggle_diarization on. */
export function transcribeWithSpeakers(
  file: string,
  options: DiarizeOptions = {},
): Promise<CliRun> {
  const args = ['--toggle_diarization', 'true', ...modelArgs(options)];
  if (options.numSpeakers !== undefined) {
    args.push('--diarization_num_speakers', String(options.numSpeakers));
  }
  args.push(...(options.fields ?? []));
  return runMurmur(file, args, options.timeoutMs);
}

/**
 * The speaker turns of a response: its speaker_mapping spans. Labels are unique across
 * channels, so the spans of every channel are scored together.
 */
export function responseTurns(response: TranscriptionResponse): SpeakerTurn[] {
  return response.prediction_raw.speaker_mapping.map((span: SpeakerSpan) => ({
    speaker: span.speaker,
    start: span.time_begin,
    end: span.time_end,
  }));
}

/** The response of a run, or a failure that says what murmur answered instead. */
export function responseOf(run: CliRun): TranscriptionResponse {
  if (!run.response) throw new Error(describeFailure(run));
  return run.response;
}

/** The speaker labels of a response's segments. */
export const speakersOf = (response: TranscriptionResponse) =>
  new Set(response.prediction_raw.transcription.map((s) => s.speaker));

/** A failed run in one sentence: the error body's status, code and message, or what it printed. */
export function describeFailure(run: CliRun): string {
  if (run.error) {
    return `murmur answered ${run.error.statusCode} ${run.error.error}: ${run.error.message}`;
  }
  const said = (run.stderr || run.stdout).trim().split('\n').slice(-3).join(' ');
  return `murmur exited ${run.code}${said ? `: ${said}` : ''}`;
}
