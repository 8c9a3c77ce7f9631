/**
 * Translation through the CLI, checked and timed: English and Spanish speech of new sequences of
 * the shared parallel rows (espeak-ng, held-out voices), transcribed and translated by
 * `murmur transcribe` into french, german, spanish and english; word error of the translated
 * segments against the same rows in the target, the segments' language codes, and
 * translation_time per segment and per minute of speech.
 * usage: tsx tools/bench/translation.ts [--sequences 8] [--first-seed 1000]
 *   [--translation-model murmur-test/m2m100-synth] [--model murmur-test/whisper-synth]
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TranscriptionResponse } from '../../src/core/contract/response';
import { REPO } from '../testing/ffmpeg-fixtures';
import { parallelRows, rowSequence, rowsText } from '../testing/parallel';
import { scratchDir, spokenFile, type TestLanguage } from '../testing/speech';
import { wordErrorRate } from '../testing/wer';

const option = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const count = Number(option('sequences') ?? 8);
const firstSeed = Number(option('first-seed') ?? 1000);
const translationModel = option('translation-model') ?? 'murmur-test/m2m100-synth';
const model = option('model') ?? 'murmur-test/whisper-synth';

const SOURCES: TestLanguage[] = ['en', 'es'];
const TARGETS: [string, TestLanguage][] = [
  ['french', 'fr'],
  ['german', 'de'],
  ['spanish', 'es'],
  ['english', 'en'],
];

const rows = parallelRows();
const dir = scratchDir();
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

async function cli(file: string, target: string): Promise<TranscriptionResponse> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      join(REPO, 'src/hosts/node/murmur.mjs'),
      'transcribe',
      file,
      '--models',
      join(REPO, '.models'),
      '--model',
      model,
      '--translation-model',
      translationModel,
      '--toggle_direct_translate',
      'true',
      '--target_translation_language',
      target,
    ],
    { maxBuffer: 1 << 26 },
  );
  return JSON.parse(stdout) as TranscriptionResponse;
}

const lines: string[] = [];
const errors: number[] = [];
for (const source of SOURCES) {
  // Sequences of 3 to 10 rows, one utterance each, with pauses between them.
  const sequences = Array.from({ length: count }, (_, i) =>
    rowSequence(firstSeed + i, 3 + ((firstSeed + i) % 8), rows.length),
  );
  const file = spokenFile(
    dir,
    `translate-${source}`,
    sequences.map((s) => ({ language: source, text: rowsText(rows, s, source) })),
  );
  for (const [name, target] of TARGETS) {
    const response = await cli(file.path, name);
    const segments = response.prediction_raw.transcription;
    const meta = response.prediction_raw.metadata;
    const reference = sequences.map((s) => rowsText(rows, s, target)).join(' ');
    const wer = wordErrorRate(reference, segments.map((s) => s.transcription).join(' '));
    const heard = segments.map((s) => s.source_transcription ?? s.transcription).join(' ');
    const recognitionWer = wordErrorRate(file.text, heard);
    const translated = segments.filter((s) => s.source_transcription !== undefined).length;
    const codes = [...new Set(segments.map((s) => s.language))].join(',');
    errors.push(wer);
    lines.push(
      `| ${source} | ${target} | ${segments.length} | ${codes} | ${(100 * recognitionWer).toFixed(1)}% | ${(100 * wer).toFixed(1)}% | ${meta.translation_time.toFixed(3)} | ${translated ? ((1000 * meta.translation_time) / translated).toFixed(1) : '-'} | ${((meta.translation_time * 60) / meta.total_speech_duration).toFixed(3)} | ${meta.inference_time.toFixed(2)} |`,
    );
    console.error(lines.at(-1));
  }
}
console.log(
  `${count} sequences per source language, ${translationModel} with ${model}, Node ${process.version}\n`,
);
console.log(
  '| source | target | segments | codes | recognition WER | translation WER | translation_time (s) | ms per segment | s per minute of speech | inference_time (s) |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const line of lines) console.log(line);
console.log(`\nmean translation WER: ${(100 * mean(errors)).toFixed(1)}%`);
