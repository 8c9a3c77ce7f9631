/**
 * Emotion from the voice with the made-here emotion model (`murmur-test/emotion-synth`),
 * through the whole pipeline: recordings of new sentences from the test vocabularies, each
 * spoken in one of the four manners the model was trained on, by held-out voices. Prints, by
 * language, how many sentences got the manner they were spoken in, a wrong emotion, or none
 * (the model not sure, or a sentence under a second). A test model: it proves the loading,
 * the windowing, the label mapping and the abstention, not how emotion is heard in real speech.
 *
 * usage: tsx tools/eval/emotion.ts [--sentences N] [--models DIR --model ID]
 */
import type { TranscriptionResponse } from '../../src/core/contract/response';
import { main } from '../../src/hosts/node';
import { mannerRecording, mannerSentences, partAt } from '../testing/manner-speech';
import { LANGUAGES, scratchDir } from '../testing/speech';

const option = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const sentences = Number(option('sentences', '24'));
const models = option('models', '.models');
const model = option('model', 'murmur-test/whisper-synth');
/** Seeds apart from the tests'. */
const BASE_SEED = 20_000;

const dir = scratchDir();
console.log('language\tsentences\tright\twrong\tnone\taccuracy\tabstained');
const total = { n: 0, right: 0, wrong: 0, none: 0 };
for (const [k, language] of LANGUAGES.entries()) {
  const said = mannerSentences(language, BASE_SEED + 1000 * k, sentences);
  const recording = mannerRecording(dir, `eval-${language}`, language, said);
  let out = '';
  let err = '';
  const code = await main(
    [
      ...['transcribe', recording.path, '--models', models, '--model', model],
      ...['--toggle_emotion_recognition', 'true', '--emotion_model', 'murmur-test/emotion-synth'],
    ],
    { stdout: (t) => (out += t), stderr: (t) => (err += t) },
  );
  if (code !== 0) throw new Error(`murmur exited ${code}: ${err}`);
  const emotions = (JSON.parse(out) as TranscriptionResponse).prediction_raw.emotions!;
  // A sentence found is judged by the manner of the part said at its middle.
  let right = 0;
  let wrong = 0;
  let none = 0;
  for (const e of emotions) {
    const part = partAt(recording, (e.time_begin + e.time_end) / 2);
    if (e.emotion === null) none++;
    else if (part !== undefined && e.emotion === said[part]!.manner) right++;
    else wrong++;
  }
  const n = emotions.length;
  total.n += n;
  total.right += right;
  total.wrong += wrong;
  total.none += none;
  console.log(
    [language, n, right, wrong, none, (right / n).toFixed(3), (none / n).toFixed(3)].join('\t'),
  );
}
console.log(
  [
    'all',
    total.n,
    total.right,
    total.wrong,
    total.none,
    (total.right / total.n).toFixed(3),
    (total.none / total.n).toFixed(3),
  ].join('\t'),
);
