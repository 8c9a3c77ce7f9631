// Transcribes every recording and video of the shared media with the test models through the
// CLI, and writes each response with its timings removed, one JSON file a request: two
// checkouts' folders compared with `diff -r` show whether a change altered any response.
//   npx tsx tools/testing/response-snapshots.ts OUT_DIR
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, extname, join, relative, resolve } from 'node:path';
import { main } from '../../src/hosts/node';

const REPO = resolve(import.meta.dirname, '..', '..');
const SHARED = resolve(process.env.MURMUR_SHARED ?? join(REPO, '..', 'shared'));
const MEDIA = join(SHARED, 'media');
const out = process.argv[2];
if (!out) throw new Error('Give the folder to write the responses into.');
mkdirSync(out, { recursive: true });

const AUDIO = new Set(['.wav', '.mp3', '.flac', '.ogg', '.m4a']);
const VIDEO = new Set(['.mp4', '.webm', '.mkv', '.mov']);

function mediaFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return mediaFiles(path);
      const extension = extname(name).toLowerCase();
      return AUDIO.has(extension) || VIDEO.has(extension) ? [path] : [];
    });
}

const models = ['--models', join(REPO, '.models'), '--model', 'murmur-test/whisper-synth'];
const speakers = [
  '--segmentation-model',
  'murmur-test/segmentation-synth',
  '--embedding-model',
  'murmur-test/embedding-synth',
];

/**
 * Each file once as it is; the two-voice recordings once more with speakers found; the
 * recordings of speech once more translated by the translation model, and once by Whisper's own
 * translate task (no translation model).
 */
function requests(path: string): { name: string; argv: string[] }[] {
  const video = VIDEO.has(extname(path).toLowerCase());
  const base = ['transcribe', path, ...models, ...(video ? ['--endpoint', 'video'] : [])];
  const name = relative(MEDIA, path).replaceAll('/', '__');
  const list = [{ name, argv: base }];
  if (/diarization|stereo/.test(path)) {
    list.push({
      name: `${name}.speakers`,
      argv: [...base, ...speakers, '--toggle_diarization', 'true'],
    });
  }
  if (/speech\/(jfk\.wav|multilingual)/.test(path)) {
    const translate = ['--toggle_direct_translate', 'true', '--target_translation_language'];
    list.push({
      name: `${name}.translated`,
      argv: [...base, '--translation-model', 'murmur-test/m2m100-synth', ...translate, 'french'],
    });
    list.push({ name: `${name}.whisper-translate`, argv: [...base, ...translate, 'english'] });
  }
  return list;
}

/** The response without what a run's timing changes. */
function withoutTimings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTimings);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !key.endsWith('_time') && key !== 'timestamp' && key !== 'request_id')
      .map(([key, inner]) => [key, withoutTimings(inner)]),
  );
}

for (const path of mediaFiles(MEDIA)) {
  for (const { name, argv } of requests(path)) {
    let stdout = '';
    const started = performance.now();
    const code = await main(argv, { stdout: (t) => (stdout += t), stderr: () => {} });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    // Messages that name a path name the checkout: two checkouts are compared.
    const parsed = JSON.parse(stdout.replaceAll(REPO, '<repo>')) as unknown;
    writeFileSync(
      join(out, `${name}.json`),
      `${JSON.stringify({ exit: code, answer: withoutTimings(parsed) }, null, 2)}\n`,
    );
    console.log(`${basename(name)}: exit ${code}, ${seconds} s`);
  }
}
