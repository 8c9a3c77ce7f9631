import { readFile } from 'node:fs/promises';
import { ENDPOINTS } from '../../core/contract/endpoints';
import { isClientError, newRequestId, ServiceError } from '../../core/contract/errors';
import {
  EnrolmentError,
  matchingSpeaker,
  resultStretches,
  stretchesOf,
  type SpeakerStretch,
} from '../../core/voices/enrol';
import {
  cleanVoiceName,
  MAX_VOICE_NAME_CHARS,
  rememberVoice,
  sameVoiceName,
  type SpeakerVoice,
  type Voice,
} from '../../core/voices/voice';
import { jobFailure, runJob, type JobOutcome } from '../../engine/job/job';
import type { CliIo, CliOptions } from './cli';
import { CliUsageError, parseCliArgs, type CliArgs } from './cli-args';
import { cliErrorLines } from './cli-wording';
import { readVoicesAt, updateVoicesAt } from './job-runtime/voices-on-disk';
import { diskFile, type DiskFile } from './media-file';
import { outputPathProblem } from './output-file';
import { EngineThread } from './server/engine-thread';

/**
 * `murmur voices add MEDIA RESULT.json --speaker LABEL --name NAME --voices FILE.json`: the
 * speaker's embedding is not in the result (a voice never enters a response), so MEDIA is run
 * through the pipeline again with diarization on, and the speaker of that run who speaks when
 * LABEL speaks in the result is remembered.
 */

export interface VoicesAddArgs {
  /** MEDIA as `murmur transcribe` would read it, with its models and request fields. */
  run: CliArgs;
  result: string;
  speaker: string;
  name: string;
  voices: string;
}

/** The subtitle options of `murmur transcribe`: they shape printed subtitles, none here. */
const NOT_HERE = new Set([
  'subtitles',
  'line-chars',
  'lines',
  'reading-speed',
  'min-seconds',
  'max-seconds',
  'gap-seconds',
  'speaker-names',
]);

/** `murmur voices add` arguments; null for `--help`. */
export function parseVoicesAddArgs(argv: readonly string[]): VoicesAddArgs | null {
  const positional: string[] = [];
  const forwarded: string[] = [];
  const own: Record<'speaker' | 'name' | 'voices', string | null> = {
    speaker: null,
    name: null,
    voices: null,
  };
  const rest = [...argv];
  while (rest.length > 0) {
    const arg = rest.shift() as string;
    if (arg === '--help' || arg === '-h') return null;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    if (arg === '--progress') {
      forwarded.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const value = eq === -1 ? rest.shift() : arg.slice(eq + 1);
    if (value === undefined) throw new CliUsageError(`--${name} needs a value.`);
    if (name === 'speaker' || name === 'name' || name === 'voices') own[name] = value;
    else if (NOT_HERE.has(name))
      throw new CliUsageError(`--${name} is not an option of murmur voices add.`);
    else if (name === 'toggle_diarization' && value !== 'true')
      throw new CliUsageError(
        'murmur voices add always tells speakers apart: leave out --toggle_diarization.',
      );
    else forwarded.push(`--${name}`, value);
  }
  if (positional.length !== 2)
    throw new CliUsageError(
      positional.length < 2
        ? 'murmur voices add needs MEDIA and RESULT.json (what murmur transcribe printed for MEDIA).'
        : `murmur voices add takes MEDIA and RESULT.json only; got "${positional[2]}" too.`,
    );
  if (own.speaker === null)
    throw new CliUsageError('Give the speaker to remember: --speaker LABEL.');
  if (own.name === null || cleanVoiceName(own.name) === '')
    throw new CliUsageError("Give the person's name: --name NAME.");
  own.name = cleanVoiceName(own.name);
  if ([...own.name].length > MAX_VOICE_NAME_CHARS)
    throw new CliUsageError(
      `--name is longer than ${MAX_VOICE_NAME_CHARS} characters: give the person's name.`,
    );
  if (own.voices === null) throw new CliUsageError('Give the voices file: --voices FILE.json.');
  const [media, result] = positional as [string, string];
  const run = parseCliArgs(['transcribe', media, ...forwarded]);
  run.fields.toggle_diarization = 'true';
  return { run, result, speaker: own.speaker, name: own.name, voices: own.voices };
}

/** The saved result's speakers' time, or a `CliUsageError` naming the file. */
async function savedStretches(path: string, label: string): Promise<SpeakerStretch[]> {
  const text = await readFile(path, 'utf8').catch(() => {
    throw new CliUsageError(`No readable file at "${path}".`);
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliUsageError(`"${path}" is not JSON.`);
  }
  try {
    const stretches = resultStretches(parsed);
    stretchesOf(stretches, label);
    return stretches;
  } catch (thrown) {
    if (thrown instanceof EnrolmentError) throw new CliUsageError(`"${path}" ${thrown.message}`);
    throw thrown;
  }
}

/** Rejects with an `AbortError` as soon as `signal` aborts, whatever `work` is doing. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () =>
      reject(new DOMException('Remembering the voice was cancelled.', 'AbortError'));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** MEDIA through the pipeline with diarization on: the response and the speakers found. */
async function speakersOf(
  args: CliArgs,
  options: CliOptions,
): Promise<{ outcome: JobOutcome<DiskFile>; speakers: SpeakerVoice[] }> {
  const engine = new EngineThread(
    {
      ...options.engine,
      models: args.models,
      model: args.model,
      translationModel: args.translationModel,
      segmentationModel: args.segmentationModel,
      embeddingModel: args.embeddingModel,
    },
    { yieldToCaller: false, loadFirst: false },
  );
  const job = { requestId: newRequestId(), ...(options.signal ? { signal: options.signal } : {}) };
  let speakers: SpeakerVoice[] = [];
  try {
    const outcome = await untilAborted(
      (async () => {
        const { fileField } = ENDPOINTS[args.endpoint];
        const file = args.file === null ? null : await diskFile(args.file);
        if (file === null) {
          const message = `No readable file at "${args.file}".`;
          throw new ServiceError('invalid_request', message, [{ field: fileField, message }]);
        }
        return runJob(
          { endpoint: args.endpoint, strings: args.fields, files: { [fileField]: file } },
          { engine: async () => engine },
          job,
          { onSpeakers: (found) => (speakers = found.speakers) },
        );
      })(),
      options.signal,
    ).catch((thrown: unknown) => jobFailure(args.endpoint, thrown, job));
    return { outcome, speakers };
  } finally {
    if (!options.signal?.aborted) await engine.close();
  }
}

/** Runs `murmur voices add`; returns the exit status. */
export async function enrolVoice(
  args: VoicesAddArgs,
  io: CliIo,
  options: CliOptions,
): Promise<number> {
  // Everything that can be refused without a run is refused before it.
  await readVoicesAt(args.voices, 'empty');
  const unwritable = await outputPathProblem(args.voices);
  if (unwritable !== null) throw new CliUsageError(unwritable);
  const saved = await savedStretches(args.result, args.speaker);
  const { outcome, speakers } = await speakersOf(args.run, options);
  if (!outcome.ok) {
    for (const line of cliErrorLines(outcome.error, args.run.endpoint))
      io.stderr(`murmur: ${line}\n`);
    return isClientError(outcome.error.code) ? 2 : 1;
  }
  const found = outcome.response.prediction_raw.speaker_mapping.map((s) => ({
    speaker: s.speaker,
    start: s.time_begin,
    end: s.time_end,
  }));
  let label: string;
  try {
    label = matchingSpeaker(saved, args.speaker, found);
  } catch (thrown) {
    if (thrown instanceof EnrolmentError)
      throw new CliUsageError(`"${args.result}" ${thrown.message}`);
    throw thrown;
  }
  const speaker = speakers.find((s) => s.speaker === label);
  if (speaker === undefined) throw new Error(`The run found no embedding for ${label}.`);
  // Read again as it is changed: another command may have added a voice since it was first read.
  const { before, voice } = await updateVoicesAt(
    args.voices,
    (current) => {
      const same = (v: Voice) => v.model === speaker.model && sameVoiceName(v.name, args.name);
      const after = rememberVoice(current, args.name, speaker, new Date());
      return { voices: after, result: { before: current.find(same), voice: after.find(same)! } };
    },
    'empty',
  );
  io.stderr(
    before === undefined
      ? `murmur: remembered ${args.speaker} as "${voice.name}" (${speaker.seconds.toFixed(1)} s of speech) in ${args.voices}\n`
      : `murmur: strengthened the voice "${voice.name}" with ${args.speaker} (${speaker.seconds.toFixed(1)} s more; ${voice.recordings} recordings, ${voice.seconds.toFixed(1)} s) in ${args.voices}\n`,
  );
  return 0;
}
