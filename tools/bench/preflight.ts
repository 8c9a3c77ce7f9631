/**
 * The first step of `npm run bench`: checks what the benchmarks need beyond npm, stages the
 * test models and makes the benchmark models that are missing. Where something is missing it
 * names it and the command that installs it, and exits 1 before any benchmark has run.
 * usage: tsx tools/bench/preflight.ts
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO, SHARED } from './bench-media';
import { writeRunStart } from './bench-result';
import { missingToolsMessage, type Requirement } from './missing-tools';

const PYTHON = '/usr/bin/python3';
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const MODELS = join(REPO, '.models');
/** The shared folder as a reader knows it: the path MURMUR_SHARED gives, or `../shared`. */
const SHARED_NAME = process.env.MURMUR_SHARED ? SHARED : relative(REPO, SHARED);

/** The benchmark models `npm run bench` loads, each with the script that makes it. */
const BENCH_MODELS = [
  {
    file: 'murmur-bench/whisper-tiny/onnx/encoder_model.onnx',
    make: ['tools/models/make-bench-models.py', '--only', 'tiny'],
  },
  {
    file: 'murmur-bench/whisper-base/onnx/encoder_model.onnx',
    make: ['tools/models/make-bench-models.py', '--only', 'base'],
  },
  {
    file: 'murmur-bench/segmentation-3.0-sized/onnx/model.onnx',
    make: ['tools/models/diarization/make_bench_models.py', '--out', MODELS],
  },
  {
    file: 'murmur-bench/wespeaker-resnet34-sized/onnx/model.onnx',
    make: ['tools/models/diarization/make_bench_models.py', '--out', MODELS],
  },
];
/** What the benchmarks and the staged models read from the shared folder. */
const SHARED_FILES = [
  'media/speech/jfk.wav',
  'media/speech/LDC93S1.wav',
  'media/speech/beckett.wav',
  'media/speech/new-home-in-the-stars-16k.wav',
  'media/diarization/dev00.wav',
  'models/silero-vad/silero_vad.onnx',
  'models/whisper-tokenizer/tokenizer.json',
  'models/whisper-configs/tiny/config.json',
  'test-corpus/vocabulary.en.txt',
];
const PYTHON_PACKAGES: Record<string, string> = {
  torch: 'python3-torch',
  onnx: 'python3-onnx',
  numpy: 'python3-numpy',
};

function runs(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The Python modules among `PYTHON_PACKAGES` that /usr/bin/python3 cannot import. */
function missingPythonModules(): string[] {
  const names = Object.keys(PYTHON_PACKAGES);
  const probe = spawnSync(
    PYTHON,
    [
      '-c',
      'import importlib.util, sys\n' +
        'print(" ".join(m for m in sys.argv[1:] if importlib.util.find_spec(m) is None))',
      ...names,
    ],
    { encoding: 'utf8' },
  );
  if (probe.status !== 0) return names;
  return probe.stdout.split(/\s+/).filter(Boolean);
}

function execute(command: string, args: string[]): void {
  const run = spawnSync(command, args, { cwd: REPO, stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(`${[command, ...args].join(' ')} failed (exit status ${run.status}).`);
    process.exit(1);
  }
}

const toMake = BENCH_MODELS.filter((m) => !existsSync(join(MODELS, m.file)));
const sharedMissing = SHARED_FILES.filter((f) => !existsSync(join(SHARED, f)));
const requirements: Requirement[] = [
  {
    name: 'ffmpeg',
    neededFor: "the benchmarks' generated recordings",
    found: runs('ffmpeg', ['-version']),
    apt: ['ffmpeg'],
  },
  {
    name: 'espeak-ng',
    neededFor: "the recognition and speaker benchmarks' generated speech",
    found: runs('espeak-ng', ['--version']),
    apt: ['espeak-ng'],
  },
  {
    name: `Chromium at ${CHROMIUM}`,
    neededFor: 'the Chromium runs (CHROMIUM_PATH names another)',
    found: executable(CHROMIUM),
    apt: ['chromium'],
  },
  {
    name: existsSync(SHARED)
      ? `${sharedMissing.join(', ')} in the shared folder ${SHARED_NAME}`
      : `the shared folder ${SHARED_NAME}`,
    neededFor: 'the recordings and models the benchmarks read',
    found: sharedMissing.length === 0,
    fix: "put the project's shared material there, or name its folder with MURMUR_SHARED",
  },
];
if (toMake.length > 0) {
  const modules = executable(PYTHON) ? missingPythonModules() : null;
  requirements.push({
    name: modules === null ? PYTHON : `${modules.join(', ')} for ${PYTHON}`,
    neededFor: `making the benchmark models in .models/murmur-bench/`,
    found: modules !== null && modules.length === 0,
    apt: [
      ...(modules === null ? ['python3'] : []),
      ...(modules ?? Object.keys(PYTHON_PACKAGES)).map((m) => PYTHON_PACKAGES[m]!),
    ],
  });
}

const message = missingToolsMessage(requirements, process.getuid?.() === 0);
if (message !== null) {
  console.error(message);
  process.exit(1);
}

execute(process.execPath, ['tools/models/stage.mjs']);
for (const make of new Set(toMake.map((m) => m.make.join('\0')))) {
  console.error(`Making the benchmark models: ${PYTHON} ${make.split('\0').join(' ')}`);
  execute(PYTHON, make.split('\0'));
}
writeRunStart();
