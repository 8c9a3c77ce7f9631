/**
 * Chapters found against true topic changes, through the whole pipeline with the test
 * recogniser: recordings made by joining passages on different topics (each passage drawn
 * from its own theme of the test vocabularies, spoken by a held-out espeak-ng voice with the
 * same pauses between all sentences), in English, French, German and Spanish. Each recognised
 * word is labelled with the passage it was said in and the chapter it was put in; Pk and
 * WindowDiff (lower is better) are printed for the chapters and for two baselines, no boundary
 * and evenly spaced boundaries (as many as the truth has), with the share of recordings whose
 * chapter count is right.
 *
 * usage: tsx tools/eval/chapters.ts [--recordings N] [--passages N] [--seconds S]
 *        [--models DIR --model ID]
 */
import type { TranscriptionResponse } from '../../src/core/contract/response';
import { main } from '../../src/hosts/node';
import { LANGUAGES, scratchDir } from '../testing/speech';
import { topicRecording, type Passage } from '../testing/topic-speech';
import { evenParts, pk, windowDiff, windowSize } from './segmentation-scores';

const option = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};

const recordings = Number(option('recordings', '3'));
const passages = Number(option('passages', '3'));
const seconds = Number(option('seconds', '45'));
const models = option('models', '.models');
const model = option('model', 'murmur-test/whisper-synth');
/** Seeds of the evaluation, apart from those of the tests. */
const BASE_SEED = 700;

async function transcribe(path: string): Promise<TranscriptionResponse> {
  let out = '';
  let err = '';
  const code = await main(
    ['transcribe', path, '--models', models, '--model', model, '--toggle_chapterization', 'true'],
    { stdout: (t) => (out += t), stderr: (t) => (err += t) },
  );
  if (code !== 0) throw new Error(`murmur exited ${code}: ${err}`);
  return JSON.parse(out) as TranscriptionResponse;
}

/** The passage a time falls in: the last that starts before the midpoint of the pause before it. */
function passageAt(list: readonly Passage[], time: number): number {
  let p = 0;
  while (p + 1 < list.length && time >= (list[p]!.end + list[p + 1]!.start) / 2) p += 1;
  return p;
}

interface Scores {
  pk: number;
  windowDiff: number;
}

const rows: {
  language: string;
  found: number;
  truth: number;
  ours: Scores;
  none: Scores;
  even: Scores;
}[] = [];
const dir = scratchDir();
for (const language of LANGUAGES) {
  for (let r = 0; r < recordings; r++) {
    const seed = BASE_SEED + LANGUAGES.indexOf(language) * 50 + r;
    const recording = topicRecording(dir, `${language}-${r}`, language, seed, {
      passages,
      passageSeconds: seconds,
    });
    const response = await transcribe(recording.path);
    const chapters = response.prediction_raw.chapters ?? [];
    const words = response.prediction_raw.transcription.flatMap((s) =>
      s.words.map((w) => ({ time: (w.time_begin + w.time_end) / 2, segment: s.time_begin })),
    );
    const reference = words.map((w) => passageAt(recording.passages, w.time));
    const hypothesis = words.map((w) => {
      let c = 0;
      while (c + 1 < chapters.length && chapters[c + 1]!.time_begin <= w.segment + 1e-3) c += 1;
      return c;
    });
    const k = windowSize(reference);
    const score = (labels: number[]): Scores => ({
      pk: pk(reference, labels, k),
      windowDiff: windowDiff(reference, labels, k),
    });
    rows.push({
      language,
      found: chapters.length,
      truth: recording.passages.length,
      ours: score(hypothesis),
      none: score(words.map(() => 0)),
      even: score(evenParts(words.length, recording.passages.length)),
    });
    const last = rows[rows.length - 1]!;
    console.log(
      `${language} #${r}: ${last.found} chapters of ${last.truth}; Pk ${last.ours.pk.toFixed(3)} (none ${last.none.pk.toFixed(3)}, even ${last.even.pk.toFixed(3)}); WindowDiff ${last.ours.windowDiff.toFixed(3)} (none ${last.none.windowDiff.toFixed(3)}, even ${last.even.windowDiff.toFixed(3)})`,
    );
  }
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const line = (name: string, pick: (row: (typeof rows)[number]) => Scores) =>
  `| ${name} | ${mean(rows.map((r) => pick(r).pk)).toFixed(3)} | ${mean(rows.map((r) => pick(r).windowDiff)).toFixed(3)} |`;
console.log(
  `\n${rows.length} recordings (${passages} passages of about ${seconds} s, ${LANGUAGES.join(', ')}); chapter count right in ${rows.filter((r) => r.found === r.truth).length}`,
);
console.log('| segmentation | Pk (mean) | WindowDiff (mean) |\n|---|---|---|');
console.log(line('Murmur chapters', (r) => r.ours));
console.log(line('no boundary', (r) => r.none));
console.log(line('evenly spaced', (r) => r.even));
