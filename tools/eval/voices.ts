/**
 * How well remembered voices name people: voices are enrolled from one recording with `murmur
 * voices add` (the command a user runs), then recognised in other recordings of the same people
 * beside people nobody enrolled. Over a sweep of thresholds (cosine distance between a speaker
 * and a voice) it prints the share of a known person's time given their right name, given
 * another person's name, and the share of an unknown person's time given any name.
 *
 *   npm run eval:voices                       generated conversations, the test models
 *   npm run eval:voices -- --generated 8 --seconds 60
 *   npm run eval:voices -- --folder DIR [--enrol ID] [--models DIR|URL] [--model ID]
 *     [--segmentation-model ID] [--embedding-model ID] [--num-speakers]
 *
 * `--folder DIR`: your own recordings, each a media file beside an RTTM of the same name (the
 * speakers under the people's names). Every speaker of the RTTM of `--enrol ID` (by default the
 * first file) is enrolled under that name; the others are recognised. `--num-speakers` gives
 * diarization each recording's true number of speakers.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { requestWithDefaults } from '../../src/core/contract/request';
import { DEFAULT_WHISPER, EMBEDDING_CHOICES } from '../../src/core/model-catalog';
import { parseRttm, type SpeakerTurn } from '../../src/core/evaluation/rttm';
import { matchingSpeaker, type SpeakerStretch } from '../../src/core/voices/enrol';
import { recogniseSpeakers, type VoiceThresholds } from '../../src/core/voices/recognise';
import type { SpeakerVoice, Voice } from '../../src/core/voices/voice';
import { readVoicesFile } from '../../src/core/voices/voice-file';
import { runPipeline } from '../../src/engine/pipeline';
import { diskFile, main, nodeEnginePorts } from '../../src/hosts/node';
import {
  modelArgs,
  TEST_DIARIZATION_MODELS,
  type DiarizationModels,
} from '../testing/diarization-cli';
import { scratchDir } from '../testing/speech';
import {
  KNOWN_PEOPLE,
  UNKNOWN_PEOPLE,
  writePeopleConversation,
} from '../testing/voice-conversations';

const USAGE =
  'usage: npm run eval:voices -- [--generated N] [--seconds S] [--models DIR|URL] [--model ID] ...\n' +
  '       npm run eval:voices -- --folder DIR [--enrol ID] [--num-speakers] [--models DIR|URL] ...';

interface Recording {
  id: string;
  media: string;
  turns: SpeakerTurn[];
}

interface Heard {
  recording: Recording;
  speakers: SpeakerVoice[];
  stretches: SpeakerStretch[];
}

function options(argv: string[]) {
  const value = (name: string) => {
    const at = argv.indexOf(`--${name}`);
    return at < 0 ? null : (argv[at + 1] ?? null);
  };
  const folder = value('folder');
  const models: DiarizationModels = {};
  for (const [flag, key] of [
    ['models', 'models'],
    ['model', 'model'],
    ['segmentation-model', 'segmentationModel'],
    ['embedding-model', 'embeddingModel'],
  ] as const) {
    const v = value(flag);
    if (v !== null) models[key] = v;
  }
  // Generated recordings are the test models' by default; your own, the CLI's defaults.
  const chosen =
    folder === null ? { models: '.models', ...TEST_DIARIZATION_MODELS, ...models } : models;
  return {
    folder,
    enrol: value('enrol'),
    generated: Number(value('generated') ?? 4),
    seconds: Number(value('seconds') ?? 40),
    numSpeakers: argv.includes('--num-speakers'),
    models: chosen,
  };
}

/** The generated set: one conversation of the known people, then others with a stranger each. */
function generatedRecordings(dir: string, count: number, seconds: number): Recording[] {
  const made = [
    { id: 'enrol', people: KNOWN_PEOPLE, seed: 1 },
    ...Array.from({ length: count }, (_, i) => ({
      id: `talk-${i + 1}`,
      people: [
        KNOWN_PEOPLE[i % KNOWN_PEOPLE.length]!,
        KNOWN_PEOPLE[(i + 1) % KNOWN_PEOPLE.length]!,
        UNKNOWN_PEOPLE[i % UNKNOWN_PEOPLE.length]!,
      ],
      seed: 101 + i,
    })),
  ];
  return made.map(({ id, people, seed }) => {
    const c = writePeopleConversation(dir, id, people, { seed, seconds });
    return { id, media: c.media, turns: c.turns };
  });
}

/** Media files beside an RTTM of the same name, in name order. */
function folderRecordings(dir: string): Recording[] {
  const files = readdirSync(dir).sort();
  return files
    .filter((f) => extname(f) !== '.rttm' && files.includes(`${basename(f, extname(f))}.rttm`))
    .map((f) => {
      const id = basename(f, extname(f));
      return {
        id,
        media: join(dir, f),
        turns: parseRttm(readFileSync(join(dir, `${id}.rttm`), 'utf8')),
      };
    });
}

async function murmur(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

const speakerCount = (turns: readonly SpeakerTurn[]) => new Set(turns.map((t) => t.speaker)).size;
const stretches = (turns: readonly SpeakerTurn[]): SpeakerStretch[] =>
  turns.map((t) => ({ speaker: t.speaker, start: t.start, end: t.end }));

/** Enrols every person of `recording` with `murmur voices add`; returns the voices file's voices. */
async function enrol(
  recording: Recording,
  dir: string,
  models: DiarizationModels,
  numSpeakers: boolean,
): Promise<Voice[]> {
  const fields = numSpeakers
    ? ['--diarization_num_speakers', String(speakerCount(recording.turns))]
    : [];
  const flags = [...modelArgs(models), ...fields];
  const run = await murmur([
    'transcribe',
    recording.media,
    '--toggle_diarization',
    'true',
    ...flags,
  ]);
  if (run.code !== 0) throw new Error(`transcribing ${recording.id} failed: ${run.stderr}`);
  const result = join(dir, `${recording.id}.result.json`);
  writeFileSync(result, run.stdout);
  const found = stretches(
    (
      JSON.parse(run.stdout) as {
        prediction_raw: {
          speaker_mapping: { speaker: string; time_begin: number; time_end: number }[];
        };
      }
    ).prediction_raw.speaker_mapping.map((s) => ({
      speaker: s.speaker,
      start: s.time_begin,
      end: s.time_end,
    })),
  );
  const file = join(dir, 'voices.json');
  const taken = new Map<string, string>();
  for (const person of [...new Set(recording.turns.map((t) => t.speaker))]) {
    const label = matchingSpeaker(stretches(recording.turns), person, found);
    if (taken.has(label)) {
      console.log(
        `  ${person} and ${taken.get(label)} are one speaker (${label}) of the enrolment run: ${person} is not enrolled`,
      );
      continue;
    }
    taken.set(label, person);
    const add = await murmur([
      'voices',
      'add',
      recording.media,
      result,
      '--speaker',
      label,
      '--name',
      person,
      '--voices',
      file,
      ...flags,
    ]);
    if (add.code !== 0) throw new Error(`voices add ${person} failed: ${add.stderr}`);
    console.log(`  ${add.stderr.trim().replace(/^murmur: /, '')}`);
  }
  return readVoicesFile(readFileSync(file, 'utf8'));
}

const overlap = (a: SpeakerStretch, b: SpeakerTurn) =>
  Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));

/** The shares of time named right, named wrong and (for people not enrolled) named at all. */
function rates(heard: readonly Heard[], voices: readonly Voice[], thresholds: VoiceThresholds) {
  const enrolled = new Set(voices.map((v) => v.name));
  const t = { known: 0, right: 0, wrong: 0, unknown: 0, named: 0, offered: 0 };
  for (const h of heard) {
    const recognised = recogniseSpeakers(h.speakers, voices, thresholds);
    const sure = new Map(recognised.filter((r) => r.sure).map((r) => [r.speaker, r.name]));
    const near = new Set(recognised.filter((r) => !r.sure).map((r) => r.speaker));
    for (const turn of h.recording.turns) {
      const length = turn.end - turn.start;
      const known = enrolled.has(turn.speaker);
      if (known) t.known += length;
      else t.unknown += length;
      for (const s of h.stretches) {
        const shared = overlap(s, turn);
        if (shared === 0) continue;
        const name = sure.get(s.speaker);
        if (known && name === turn.speaker) t.right += shared;
        else if (known && name !== undefined) t.wrong += shared;
        else if (!known && name !== undefined) t.named += shared;
        if (!known && near.has(s.speaker)) t.offered += shared;
      }
    }
  }
  // Each speaker found, as the person who holds most of its time: what the threshold decides.
  const d = { known: 0, right: 0, unknown: 0, named: 0 };
  for (const h of heard) {
    const recognised = recogniseSpeakers(h.speakers, voices, thresholds);
    for (const s of h.speakers) {
      const owner = ownerOf(h, s.speaker);
      const name = recognised.find((r) => r.sure && r.speaker === s.speaker)?.name;
      if (enrolled.has(owner)) {
        d.known++;
        if (name === owner) d.right++;
      } else {
        d.unknown++;
        if (name !== undefined) d.named++;
      }
    }
  }
  const share = (part: number, whole: number) => (whole > 0 ? part / whole : 0);
  return {
    speakersRight: share(d.right, d.known),
    speakersFalse: share(d.named, d.unknown),
    right: share(t.right, t.known),
    wrong: share(t.wrong, t.known),
    false: share(t.named, t.unknown),
    offered: share(t.offered, t.unknown),
  };
}

/** The person who holds most of a found speaker's time. */
function ownerOf(h: Heard, speaker: string): string {
  const held = new Map<string, number>();
  for (const turn of h.recording.turns)
    for (const stretch of h.stretches)
      if (stretch.speaker === speaker)
        held.set(turn.speaker, (held.get(turn.speaker) ?? 0) + overlap(stretch, turn));
  return [...held].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
}

/** Each speaker found: whose time it holds, and how far it lies from each voice. */
function speakerLines(h: Heard, voices: readonly Voice[]): string[] {
  return h.speakers.map((s) => {
    const held = new Map<string, number>();
    for (const turn of h.recording.turns)
      for (const stretch of h.stretches)
        if (stretch.speaker === s.speaker)
          held.set(turn.speaker, (held.get(turn.speaker) ?? 0) + overlap(stretch, turn));
    const people = [...held]
      .filter(([, seconds]) => seconds > 0)
      .map(([person, seconds]) => `${person} ${seconds.toFixed(1)} s`)
      .join(', ');
    const far = voices
      .map((v) => `${v.name} ${cosineDistance(s.embedding, v.embedding).toFixed(3)}`)
      .join(', ');
    return `${s.speaker}: ${people || 'nobody'}; distance to ${far}`;
  });
}

function cosineDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return 1 - dot / (Math.sqrt(na * nb) || 1);
}

const percent = (v: number) => `${(100 * v).toFixed(1)}%`.padStart(7);

async function evaluate() {
  const o = options(process.argv.slice(2));
  const dir = scratchDir();
  try {
    const recordings =
      o.folder === null
        ? generatedRecordings(dir, o.generated, o.seconds)
        : folderRecordings(o.folder);
    const enrolAt = o.enrol === null ? 0 : recordings.findIndex((r) => r.id === o.enrol);
    if (recordings.length < 2 || enrolAt < 0) throw new Error(USAGE);
    const [enrolment] = recordings.splice(enrolAt, 1) as [Recording];
    console.log(`enrolling the people of ${enrolment.id} with murmur voices add`);
    const voices = await enrol(enrolment, dir, o.models, o.numSpeakers);
    const ports = nodeEnginePorts({
      ...o.models,
      models: o.models.models ?? null,
      model: o.models.model ?? DEFAULT_WHISPER,
    });
    const heard: Heard[] = [];
    for (const recording of recordings) {
      const file = await diskFile(recording.media);
      if (file === null) throw new Error(`cannot read ${recording.media}`);
      let speakers: SpeakerVoice[] = [];
      const count = speakerCount(recording.turns);
      const request = requestWithDefaults(
        'audio',
        { kind: 'file', file },
        {
          toggle_diarization: true,
          ...(o.numSpeakers
            ? { diarization: { num_speakers: count, min_speakers: null, max_speakers: null } }
            : {}),
        },
      );
      const response = await runPipeline(request, ports, {
        onSpeakers: (f) => (speakers = f.speakers),
      });
      const found = response.prediction_raw.speaker_mapping.map((s) => ({
        speaker: s.speaker,
        start: s.time_begin,
        end: s.time_end,
      }));
      heard.push({ recording, speakers, stretches: found });
      console.log(`  ${recording.id}: ${count} people, ${speakers.length} speakers found`);
      for (const line of speakerLines({ recording, speakers, stretches: found }, voices))
        console.log(`    ${line}`);
    }
    console.log(
      `\n${recordings.length} recording${recordings.length === 1 ? '' : 's'}; known: ${voices.map((v) => v.name).join(', ')}`,
    );
    console.log('        time of a known person   unknown   speakers found: known   unknown');
    console.log('match   named right  wrong        named     named right             named');
    const sweep: { at: number; r: ReturnType<typeof rates> }[] = [];
    for (let at = 0.02; at <= 1.0001; at += 0.02) {
      const r = rates(heard, voices, { match: at, near: at });
      sweep.push({ at, r });
      console.log(
        `${at.toFixed(2)}    ${percent(r.right)}  ${percent(r.wrong)}      ${percent(r.false)}   ${percent(r.speakersRight)}               ${percent(r.speakersFalse)}`,
      );
    }
    // Time named wrongly is most often diarization's error (a stretch of one person in another's
    // cluster), which no threshold mends; the threshold decides whole speakers. The name is
    // given halfway between the distance where nine in ten known speakers are named and the
    // last where at most one in fifty unknown ones is, and offered halfway beyond that.
    const known = sweep.find((s) => s.r.speakersRight >= 0.9)?.at ?? null;
    const unknown = sweep.filter((s) => s.r.speakersFalse <= 0.02).at(-1)?.at ?? 0;
    const round = (v: number) => Math.round(v * 100) / 100;
    const match = known !== null && known < unknown ? round((known + unknown) / 2) : round(unknown);
    const chosen = { match, near: round(match + (Math.max(unknown, match) - match) / 2) };
    if (known === null || known >= unknown)
      console.log(
        '\nno threshold names nine in ten known speakers and at most one in fifty unknown',
      );
    const model = voices[0]?.model ?? o.models.embeddingModel ?? '';
    const catalog = EMBEDDING_CHOICES.find((c) => c.id === model)?.voiceThresholds;
    for (const [what, t] of [
      ['measured', chosen],
      ...(catalog ? ([['in the catalog', catalog]] as const) : []),
    ] as const) {
      const r = rates(heard, voices, t);
      console.log(
        `\n${what} for ${model}: match ${t.match}, near ${t.near}: a known person's time named right ${percent(r.right).trim()}, named wrong ${percent(r.wrong).trim()}; an unknown person's time named ${percent(r.false).trim()}, offered a name ${percent(r.offered).trim()}; known speakers found named right ${percent(r.speakersRight).trim()}, unknown ones named ${percent(r.speakersFalse).trim()}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await evaluate();
