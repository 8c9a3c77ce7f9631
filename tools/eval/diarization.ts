/**
 * How well `murmur transcribe --toggle_diarization true` tells speakers apart: the response's
 * speaker_mapping scored against a reference RTTM, as diarization error rate without a collar
 * and with a 0.25 s one (the usual choice for hand-marked references).
 *
 *   npm run eval:diarization -- AUDIO RTTM [--models DIR|URL] [--model ID]
 *     [--segmentation-model ID] [--embedding-model ID] [--num-speakers N] [--uem FILE]
 *   npm run eval:diarization -- --generated N [--held-out-voices SEED] [--models ...]
 *
 * `--generated N` scores N generated conversations (2, 3 and 4 speakers in turn, with
 * overlaps, 40 to 120 s) and one stereo call, each with and without the true speaker count.
 * With `--held-out-voices SEED`, each conversation's voices are drawn at random from those the
 * test models never heard (`heldOutVoices`), the draw and the conversations set by SEED.
 */
import { readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  diarizationError,
  type DiarizationError,
  type TimeSpan,
} from '../../src/core/evaluation/der';
import { parseRttm, rttmFiles, type SpeakerTurn } from '../../src/core/evaluation/rttm';
import {
  conversation,
  fileId,
  heldOutVoices,
  stereoCall,
  writeConversationWav,
  type Conversation,
  type StereoCall,
} from '../testing/conversation';
import {
  describeFailure,
  responseTurns,
  TEST_DIARIZATION_MODELS,
  transcribeWithSpeakers,
  type CliRun,
  type DiarizationModels,
} from '../testing/diarization-cli';
import { scratchDir } from '../testing/speech';

export const COLLAR = 0.25;

class UsageError extends Error {}

interface EvalArgs {
  audio?: string;
  rttm?: string;
  uem?: string;
  numSpeakers?: number;
  generated?: number;
  heldOutSeed?: number;
  models: DiarizationModels;
}

const USAGE =
  'usage: npm run eval:diarization -- AUDIO RTTM [--models DIR|URL] [--model ID] ' +
  '[--segmentation-model ID] [--embedding-model ID] [--num-speakers N] [--uem FILE]\n' +
  '       npm run eval:diarization -- --generated N [--held-out-voices SEED] [--models DIR|URL] ...';

function positiveInteger(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--${name} must be a positive integer`);
  return n;
}

function parseArgs(argv: readonly string[]): EvalArgs {
  const args: EvalArgs = { models: {} };
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const name = arg.slice(2);
    const value = argv[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (name === 'models') args.models.models = value;
    else if (name === 'model') args.models.model = value;
    else if (name === 'segmentation-model') args.models.segmentationModel = value;
    else if (name === 'embedding-model') args.models.embeddingModel = value;
    else if (name === 'num-speakers') args.numSpeakers = positiveInteger(name, value);
    else if (name === 'uem') args.uem = value;
    else if (name === 'generated') args.generated = positiveInteger(name, value);
    else if (name === 'held-out-voices') args.heldOutSeed = positiveInteger(name, value);
    else throw new UsageError(`unknown option --${name}`);
  }
  // The staged test models are the ones a local `.models` folder holds.
  if (args.models.models !== undefined && basename(args.models.models) === '.models') {
    args.models = { ...TEST_DIARIZATION_MODELS, ...args.models };
  }
  if (args.heldOutSeed !== undefined && args.generated === undefined) {
    throw new UsageError('--held-out-voices goes with --generated');
  }
  if (args.generated !== undefined) {
    if (positional.length > 0) throw new UsageError('--generated takes no AUDIO or RTTM');
    return args;
  }
  if (positional.length !== 2) throw new UsageError('give AUDIO and RTTM, or --generated N');
  [args.audio, args.rttm] = positional as [string, string];
  return args;
}

/** The reference turns for `audio`: all of them, or those of its file id when the RTTM has several. */
function referenceFor(audio: string, rttmText: string): SpeakerTurn[] {
  const files = rttmFiles(rttmText);
  if (files.length <= 1) return parseRttm(rttmText);
  const id = fileId(audio);
  if (!files.includes(id)) {
    throw new UsageError(`the RTTM has no turns for "${id}" (it has ${files.join(', ')})`);
  }
  return parseRttm(rttmText, { file: id });
}

/** The scored stretches of a NIST UEM file (`<file> <channel> <start> <end>` a line) for `audio`. */
function uemFor(audio: string, text: string): TimeSpan[] {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length >= 4 && !f[0]!.startsWith(';;'));
  const files = new Set(lines.map((f) => f[0]));
  const id = fileId(audio);
  const mine = files.size <= 1 ? lines : lines.filter((f) => f[0] === id);
  if (mine.length === 0) throw new UsageError(`the UEM has no stretch for "${id}"`);
  return mine.map((f) => ({ start: Number(f[2]), end: Number(f[3]) }));
}

const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;
const part = (rate: number, seconds: number) => `${percent(rate)} (${seconds.toFixed(1)} s)`;

function errorLine(label: string, e: DiarizationError): string {
  return [
    label.padEnd(16),
    `DER ${percent(e.der).padStart(6)}`,
    `missed ${part(e.missedRate, e.missed)}`,
    `false alarm ${part(e.falseAlarmRate, e.falseAlarm)}`,
    `confusion ${part(e.confusionRate, e.confusion)}`,
  ].join('   ');
}

const speakerCount = (turns: readonly SpeakerTurn[]) => new Set(turns.map((t) => t.speaker)).size;

/** Scores one file and prints the report; the exit status. */
async function scoreFile(args: EvalArgs): Promise<number> {
  const audio = args.audio!;
  const reference = referenceFor(audio, readFileSync(args.rttm!, 'utf8'));
  const uem = args.uem === undefined ? undefined : uemFor(audio, readFileSync(args.uem, 'utf8'));
  const run = await transcribeWithSpeakers(audio, {
    ...args.models,
    ...(args.numSpeakers !== undefined ? { numSpeakers: args.numSpeakers } : {}),
  });
  if (!run.response) return failed(run);
  const hypothesis = responseTurns(run.response);
  const options = uem ? { uem } : {};
  const plain = diarizationError(reference, hypothesis, options);
  const collared = diarizationError(reference, hypothesis, { ...options, collar: COLLAR });
  const metadata = run.response.prediction_raw.metadata;
  const duration = metadata.provided_file_metadata.duration;
  console.log(
    `${audio}: ${reference.length} reference turns, ${plain.total.toFixed(1)} s of speaker time`,
  );
  console.log(errorLine('no collar', plain));
  console.log(errorLine(`collar ${COLLAR} s`, collared));
  console.log(
    `speakers: ${speakerCount(hypothesis)} found, ${speakerCount(reference)} in the reference`,
  );
  console.log(
    `time: ${run.seconds.toFixed(1)} s for ${duration.toFixed(1)} s of audio ` +
      `(diarization ${metadata.diarization_time.toFixed(1)} s)`,
  );
  return 0;
}

function failed(run: CliRun): number {
  console.error(`eval:diarization: ${describeFailure(run)}`);
  if (run.error) console.error(JSON.stringify(run.error, null, 2));
  return 1;
}

interface GeneratedFile {
  name: string;
  audio: Conversation | StereoCall;
  turns: SpeakerTurn[];
}

/**
 * N conversations (2, 3, 4 speakers in turn, 40 to 120 s, overlaps) and a stereo call, each
 * made when it is asked for, so that the first is scored before the last is spoken.
 */
function* generatedFiles(n: number, heldOutSeed?: number): Generator<GeneratedFile> {
  for (let i = 0; i < n; i++) {
    const speakers = 2 + (i % 3);
    const seconds = 40 + ((i * 37) % 81);
    const seed = heldOutSeed === undefined ? 500 + i : heldOutSeed * 100 + i;
    const voices = heldOutSeed === undefined ? undefined : heldOutVoices(speakers, seed);
    const c = conversation({
      speakers,
      seconds,
      overlapShare: 0.25,
      seed,
      ...(voices ? { voices } : {}),
    });
    if (voices) {
      const named = voices.map((v) => `${v.variant} p${v.pitch} s${v.speed}`).join(', ');
      console.log(`conv-${i}: ${named}`);
    }
    yield { name: `conv-${i}-${speakers}spk-${seconds}s`, audio: c, turns: c.turns };
  }
  if (heldOutSeed !== undefined) return;
  const call = stereoCall({ seed: 900, turns: 16 });
  yield { name: 'stereo-call', audio: call, turns: call.turns };
}

async function scoreGenerated(args: EvalArgs): Promise<number> {
  const dir = scratchDir();
  try {
    console.log(
      [
        'file'.padEnd(24),
        'count',
        'speakers true/found',
        'DER collar 0.25',
        'DER no collar',
        'seconds',
      ].join(' | '),
    );
    for (const file of generatedFiles(args.generated!, args.heldOutSeed)) {
      const path = writeConversationWav(join(dir, `${file.name}.wav`), file.audio);
      const truth = speakerCount(file.turns);
      for (const given of [undefined, truth]) {
        const run = await transcribeWithSpeakers(path, {
          ...args.models,
          ...(given !== undefined ? { numSpeakers: given } : {}),
        });
        if (!run.response) return failed(run);
        const hypothesis = responseTurns(run.response);
        const collared = diarizationError(file.turns, hypothesis, { collar: COLLAR });
        const plain = diarizationError(file.turns, hypothesis);
        console.log(
          [
            file.name.padEnd(24),
            (given === undefined ? 'auto' : 'given').padEnd(5),
            `${truth}/${speakerCount(hypothesis)}`.padEnd(19),
            percent(collared.der).padStart(15),
            percent(plain.der).padStart(13),
            run.seconds.toFixed(1).padStart(7),
          ].join(' | '),
        );
      }
    }
    return 0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(argv: readonly string[]): Promise<number> {
  let args: EvalArgs;
  try {
    args = parseArgs(argv);
    return await (args.generated !== undefined ? scoreGenerated(args) : scoreFile(args));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`eval:diarization: ${e.message}\n${USAGE}`);
    return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
