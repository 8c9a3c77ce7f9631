/**
 * `npm run bench:align`: word timing against known times. Generated speech (every word spoken
 * on its own by espeak-ng with a held-out voice, joined with pauses of 0.06-0.36 s, so that
 * each word's start is known to the sample) in the four languages of the test model, timed two
 * ways through the CLI: `murmur transcribe` (the words recognition heard, where they line up
 * with the text) and `murmur align` with the text. Prints each file's median start error and
 * the median and 90th percentile over all words, and the time each took.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { matchWords } from '../../src/core/alignment/word-matching';
import type { TranscriptionResponse } from '../../src/core/contract/response';
import { main } from '../../src/hosts/node';
import { LANGUAGES, scratchDir, sentence } from '../testing/speech';
import { timedSpeech } from '../testing/timed-speech';

const MODELS = ['--models', join(import.meta.dirname, '..', '..', '.models')];
const MODEL = ['--model', 'murmur-test/whisper-synth'];
const FILES_PER_LANGUAGE = 3;

async function cli(...argv: string[]): Promise<TranscriptionResponse> {
  let out = '';
  let err = '';
  const code = await main([...argv, ...MODELS, ...MODEL], {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
  });
  if (code !== 0) throw new Error(`murmur ${argv[0]} exited ${code}: ${err}`);
  return JSON.parse(out) as TranscriptionResponse;
}

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]!;

const dir = scratchDir();
const errors = { transcribe: [] as number[], align: [] as number[] };
const seconds = { transcribe: 0, align: 0, audio: 0 };
let heardWords = 0;
let scriptWords = 0;
for (const [l, language] of LANGUAGES.entries()) {
  for (let k = 0; k < FILES_PER_LANGUAGE; k++) {
    const seed = 900 + l * 10 + k;
    const text = `${sentence(language, seed, 9)}. ${sentence(language, seed + 500, 9)}.`;
    const speech = timedSpeech(dir, `bench-${seed}`, language, text, seed);
    const script = join(dir, `bench-${seed}.txt`);
    writeFileSync(script, text);
    seconds.audio += speech.words.at(-1)!.end + 0.8;

    let started = performance.now();
    const heard = (await cli('transcribe', speech.path)).prediction_raw.transcription.flatMap(
      (s) => s.words,
    );
    seconds.transcribe += (performance.now() - started) / 1000;
    const lined = matchWords(
      speech.words.map((w) => w.text),
      heard.map((w) => w.word),
    );
    const heardErrors = lined.flatMap((h, i) =>
      h === null ? [] : [Math.abs(heard[h]!.time_begin - speech.words[i]!.start)],
    );
    errors.transcribe.push(...heardErrors);
    heardWords += heardErrors.length;

    started = performance.now();
    const aligned = (await cli('align', speech.path, script)).prediction_raw.transcription.flatMap(
      (s) => s.words,
    );
    seconds.align += (performance.now() - started) / 1000;
    const alignErrors = aligned.map((w, i) => Math.abs(w.time_begin - speech.words[i]!.start));
    errors.align.push(...alignErrors);
    scriptWords += speech.words.length;
    console.log(
      `${language} ${seed}: ${speech.words.length} words; transcribe median ${quantile(heardErrors, 0.5).toFixed(3)} s (${heardErrors.length} words lined up), align median ${quantile(alignErrors, 0.5).toFixed(3)} s`,
    );
  }
}
console.log('');
console.log(
  `audio: ${seconds.audio.toFixed(1)} s in ${LANGUAGES.length * FILES_PER_LANGUAGE} files`,
);
for (const how of ['transcribe', 'align'] as const) {
  const e = errors[how];
  console.log(
    `${how.padEnd(10)} word start error: median ${quantile(e, 0.5).toFixed(3)} s, 90th percentile ${quantile(e, 0.9).toFixed(3)} s, over ${how === 'align' ? scriptWords : heardWords} words; ${seconds[how].toFixed(1)} s of work`,
  );
}
console.log(`align / transcribe time: ${(seconds.align / seconds.transcribe).toFixed(2)}`);
