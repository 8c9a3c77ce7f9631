/**
 * Speech under music, through the whole pipeline with the test recogniser: generated sentences
 * (held-out espeak-ng voices) over generated music beds at +10, +5, 0 and -5 dB, the clean
 * speech, and music alone, noise alone and silence. For each condition it reports how much of
 * the voiced speech the transcript's segments cover (speech found), the segments' time outside
 * it (false alarm, as a share of the speech; in seconds where there is no speech), and the word
 * error rate against what was said.
 *
 * Two sets: `dev` (the one settings are chosen on) and `test` (reported on); different
 * sentences, voices' order and beds.
 *
 * usage: tsx tools/eval/music.ts [--set dev|test] [--programmes N] [--models DIR --model ID]
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scoreSpeechActivity } from '../../src/core/evaluation/speech-activity';
import type { TranscriptionResponse } from '../../src/core/contract/response';
import { main } from '../../src/hosts/node';
import { musicAlone, noiseAlone, overMusic, programme } from '../testing/music-set';
import { scratchDir } from '../testing/speech';
import { writeWav } from '../testing/wav';
import { wordErrorRate } from '../testing/wer';

const option = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};

const RATE = 16000;
const SNRS = [10, 5, 0, -5];
const set = option('set', 'test');
const count = Number(option('programmes', '3'));
const models = option('models', '.models');
const model = option('model', 'murmur-test/whisper-synth');
/** Seeds of the two sets never overlap. */
const base = set === 'dev' ? 500 : 900;

async function transcribe(path: string): Promise<TranscriptionResponse> {
  let out = '';
  let err = '';
  const code = await main(['transcribe', path, '--models', models, '--model', model], {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
  });
  if (code !== 0) throw new Error(`murmur exited ${code}: ${err}`);
  return JSON.parse(out) as TranscriptionResponse;
}

interface Row {
  condition: string;
  speech: number;
  found: number;
  falseAlarm: number;
  words: number;
  errors: number;
  segments: number;
  /** Seconds of segments where nothing was said (the conditions without speech). */
  inventedSeconds: number;
}

const rows = new Map<string, Row>();
const add = (r: Omit<Row, 'condition'>, condition: string) => {
  const row = rows.get(condition) ?? {
    condition,
    speech: 0,
    found: 0,
    falseAlarm: 0,
    words: 0,
    errors: 0,
    segments: 0,
    inventedSeconds: 0,
  };
  for (const key of Object.keys(r) as (keyof typeof r)[]) row[key] += r[key];
  rows.set(condition, row);
};

const dir = scratchDir();
for (let k = 0; k < count; k++) {
  const seed = base + k;
  const p = programme({ sentences: 6, seed });
  const reference = p.sentences.map((s) => ({ start: s.from / RATE, end: s.to / RATE }));
  const text = p.sentences.map((s) => s.text).join(' ');
  const duration = p.speech.length / RATE;
  const conditions: [string, Float32Array][] = [
    ['clean', p.speech],
    ...SNRS.map((snr): [string, Float32Array] => [
      `${snr > 0 ? '+' : ''}${snr} dB`,
      overMusic(p, snr, seed * 7 + 1),
    ]),
  ];
  for (const [condition, samples] of conditions) {
    const path = writeWav(
      join(dir, `${seed}-${condition.replace('+', 'p').replace('-', 'm').replace(/\W/g, '')}.wav`),
      [samples],
    );
    const response = await transcribe(path);
    const segments = response.prediction_raw.transcription;
    const score = scoreSpeechActivity(
      reference,
      segments.map((s) => ({ start: s.time_begin, end: s.time_end })),
      { start: 0, end: duration },
    );
    const words = text.split(/\s+/).length;
    const said = segments.map((s) => s.transcription).join(' ');
    add(
      {
        speech: score.referenceSeconds,
        found: score.referenceSeconds - score.missedSeconds,
        falseAlarm: score.falseAlarmSeconds,
        words,
        errors: Math.round(wordErrorRate(text, said) * words),
        segments: segments.length,
        inventedSeconds: 0,
      },
      condition,
    );
  }
  const nothing: [string, Float32Array][] = [
    ['music alone', musicAlone(30, seed * 7 + 3)],
    ['noise alone', noiseAlone(30, seed * 7 + 4)],
    ['silence', new Float32Array(30 * RATE)],
  ];
  for (const [condition, samples] of nothing) {
    const path = writeWav(
      join(dir, `${seed}-${condition.replace('+', 'p').replace('-', 'm').replace(/\W/g, '')}.wav`),
      [samples],
    );
    const segments = (await transcribe(path)).prediction_raw.transcription;
    add(
      {
        speech: 0,
        found: 0,
        falseAlarm: 0,
        words: 0,
        errors: 0,
        segments: segments.length,
        inventedSeconds: segments.reduce((s, x) => s + x.time_end - x.time_begin, 0),
      },
      condition,
    );
  }
  process.stderr.write(`programme ${k + 1} of ${count} done\n`);
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const lines = [
  `set ${set}, ${count} programmes of 6 sentences, ${model}`,
  '',
  '| condition | speech | speech found | false alarm | WER | segments where nothing was said |',
  '| --------- | ------ | ------------ | ----------- | --- | ------------------------------- |',
  ...[...rows.values()].map((r) =>
    r.speech > 0
      ? `| ${r.condition} | ${r.speech.toFixed(1)} s | ${pct(r.found / r.speech)} | ${pct(r.falseAlarm / r.speech)} | ${pct(r.errors / r.words)} | |`
      : `| ${r.condition} | 0 s | | | | ${r.segments} (${r.inventedSeconds.toFixed(1)} s) |`,
  ),
];
process.stdout.write(lines.join('\n') + '\n');
const out = option('json', '');
if (out) writeFileSync(out, JSON.stringify([...rows.values()], null, 2));
