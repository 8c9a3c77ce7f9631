/**
 * Speech detection measured on real meetings: the far-field AMI excerpts with reference
 * speaker turns in the shared media (dev00 and dev01, the development meetings the detector's
 * settings were chosen on, and pyannote's sample as a check), scored frame by frame (10 ms, no
 * collar) as missed speech and false alarm, each a share of the labelled speech.
 *
 * - before: Silero VAD as it was (each stream scored at its own level; onset 0.5, offset 0.35,
 *   pauses of 0.1 s end speech, 0.03 s padding);
 * - after: the speech stage's detector as it is (levels brought up, the current region rules);
 * - gate: what the speech stage hands to recognition: VAD's speech and the loud stretches
 *   outside it (src/core/audio/speech-gate.ts), which the recogniser then judges;
 * - transcript: the segments that the whole pipeline returns (with `--models DIR --model ID`),
 *   and how much labelled speech that VAD found the recogniser then left without a segment.
 *
 * usage: tsx tools/bench/vad.ts [--models DIR --model ID]
 */
import { readFileSync } from 'node:fs';
import { scoreSpeechActivity, rttmSpeech } from '../../src/core/evaluation/speech-activity';
import { frameLevelsDb } from '../../src/core/audio/levels';
import { loudRegions } from '../../src/core/audio/loud-regions';
import { gateRegions } from '../../src/core/audio/speech-gate';
import { speechRegions, type TimeSpan } from '../../src/core/audio/speech-regions';
import type { TranscriptionResponse } from '../../src/core/contract/response';
import { loadSileroVad } from '../../src/engine/models/silero-vad';
import { TEST_VAD_MODEL_ID, sharedMedia, testModelFiles } from '../testing/ffmpeg-fixtures';
import { main, nodeOnnxRuntime } from '../../src/hosts/node';
import { pcm16k } from '../testing/speech';

const option = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? (process.argv[i + 1] ?? null) : null;
};

const BEFORE_REGIONS = {
  threshold: 0.5,
  negativeThreshold: 0.35,
  minSilenceSeconds: 0.1,
  padSeconds: 0.03,
};

interface Meeting {
  name: string;
  rttm: string;
  /** The scored span (the UEM's, or the whole file). */
  uem: TimeSpan | null;
}

function meetings(): Meeting[] {
  const dir = sharedMedia('diarization');
  const uem = new Map(
    readFileSync(`${dir}/debug.development.uem`, 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split(/\s+/))
      .map(([file, , start, end]) => [file!, { start: Number(start), end: Number(end) }]),
  );
  const development = readFileSync(`${dir}/debug.development.lst`, 'utf8').trim().split(/\s+/);
  return [
    ...development.map((name) => ({
      name,
      rttm: 'debug.development.rttm',
      uem: uem.get(name) ?? null,
    })),
    { name: 'sample', rttm: 'sample.rttm', uem: null },
  ];
}

async function transcriptSpans(path: string, models: string, model: string): Promise<TimeSpan[]> {
  let out = '';
  const code = await main(['transcribe', path, '--models', models, '--model', model], {
    stdout: (t) => (out += t),
    stderr: () => undefined,
  });
  if (code !== 0) throw new Error(`murmur exited ${code}: ${out}`);
  const response = JSON.parse(out) as TranscriptionResponse;
  return response.prediction_raw.transcription
    .map((s) => ({ start: s.time_begin, end: s.time_end }))
    .sort((a, b) => a.start - b.start);
}

/** Spans in `a` and also in `b`. */
function intersect(a: readonly TimeSpan[], b: readonly TimeSpan[]): TimeSpan[] {
  const out: TimeSpan[] = [];
  for (const x of a) {
    for (const y of b) {
      const start = Math.max(x.start, y.start);
      const end = Math.min(x.end, y.end);
      if (end > start) out.push({ start, end });
    }
  }
  return out;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

const onnx = nodeOnnxRuntime();
const files = testModelFiles();
const before = await loadSileroVad(onnx, files, { modelId: TEST_VAD_MODEL_ID, level: null });
const after = await loadSileroVad(onnx, files, { modelId: TEST_VAD_MODEL_ID });
const models = option('models');
const model = option('model');

const rows: string[] = [];
type Pool = Record<string, { reference: number; missed: number; falseAlarm: number }>;
const development: Pool = {};
const checks: Pool = {};
for (const m of meetings()) {
  const path = sharedMedia(`diarization/${m.name}.wav`);
  const samples = pcm16k(path);
  const duration = samples.length / 16_000;
  const scored = m.uem ?? { start: 0, end: duration };
  const reference = rttmSpeech(readFileSync(sharedMedia(`diarization/${m.rttm}`), 'utf8'), m.name);
  const old = speechRegions(await before.probabilities(samples), duration, BEFORE_REGIONS);
  const now = speechRegions(await after.probabilities(samples), duration);
  const sOld = scoreSpeechActivity(reference, old, scored);
  const sNow = scoreSpeechActivity(reference, now, scored);
  const gated = gateRegions(now, loudRegions(frameLevelsDb(samples, 512), duration));
  const sGate = scoreSpeechActivity(reference, gated, scored);
  for (const [key, score] of [
    ['now', sNow],
    ['gate', sGate],
  ] as const) {
    const pool = m.name === 'sample' ? checks : development;
    const p = (pool[key] ??= { reference: 0, missed: 0, falseAlarm: 0 });
    p.reference += score.referenceSeconds;
    p.missed += score.missedSeconds;
    p.falseAlarm += score.falseAlarmSeconds;
  }
  let transcript = '';
  if (models && model) {
    const segments = await transcriptSpans(path, models, model);
    const sText = scoreSpeechActivity(reference, segments, scored);
    // Labelled speech that VAD found but no segment covers: the recogniser dropped it.
    const found = intersect(reference, now);
    const dropped = scoreSpeechActivity(found, segments, scored).missedSeconds;
    transcript = ` | ${pct(sText.detectedRate)} | ${pct(sText.falseAlarmRate)} | ${pct(dropped / sText.referenceSeconds)}`;
  }
  rows.push(
    `| ${m.name} | ${sNow.referenceSeconds.toFixed(1)} s | ${pct(sOld.detectedRate)} | ${pct(sOld.falseAlarmRate)} | ${pct(sNow.detectedRate)} | ${pct(sNow.falseAlarmRate)} | ${pct(sGate.detectedRate)} | ${pct(sGate.falseAlarmRate)}${transcript} |`,
  );
}
const header = models
  ? '| meeting | labelled speech | before: found | false alarm | after: found | false alarm | gate: found | false alarm | transcript: covered | false alarm | found by VAD, no segment |'
  : '| meeting | labelled speech | before: found | false alarm | after: found | false alarm | gate: found | false alarm |';
console.log(header);
console.log(header.replace(/[^|]+/g, ' --- '));
console.log(rows.join('\n'));
for (const [name, pool] of [
  ['development (dev00 + dev01)', development],
  ['check (sample)', checks],
] as const) {
  const line = (['now', 'gate'] as const)
    .map((key) => {
      const p = pool[key]!;
      return `${key === 'now' ? 'VAD' : 'gate'} found ${pct(1 - p.missed / p.reference)}, false alarm ${pct(p.falseAlarm / p.reference)}`;
    })
    .join('; ');
  console.log(`pooled, ${name}: ${line}`);
}
