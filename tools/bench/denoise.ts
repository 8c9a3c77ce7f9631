/**
 * Noise reduction, measured. Clean read speech (LJSpeech, JFK, TIMIT, Moonshine samples) is
 * mixed with white, pink and babble noise at several signal-to-noise ratios, then run through
 * the denoiser exactly as the media stage runs it (ffmpeg.wasm, `denoiseChannel`).
 *
 * Objective measures, needing no recogniser:
 * - SI-SDR improvement (dB): scale-invariant signal-to-distortion ratio of the output against
 *   the clean speech, minus that of the noisy input. Positive: the output is closer to clean.
 * - On clean speech: SI-SDR of the output against the input (how little clean speech is
 *   changed; above ~20 dB the change is inaudible) and the log-spectral distance (dB).
 *
 * With `--models DIR [--model ID]` it also transcribes every condition with and without noise
 * reduction through the whole pipeline and reports the word error rate.
 * `--speech synthetic` uses new sentences spoken by espeak-ng in held-out voices (two per
 * language) instead of the recordings: the speech the test model knows.
 * usage: tsx tools/bench/denoise.ts [--filters "a;b"] [--models DIR] [--model ID] [--speech synthetic]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { spectralDenoise } from '../../src/core/audio/spectral-denoise';
import { DENOISE_FILTER, denoiseChannel } from './ffmpeg-denoise';

/** The name of Murmur's own spectral Wiener denoiser in the table (not an ffmpeg filter). */
const WIENER = 'murmur-wiener';
import { nodeFfmpeg } from '../../src/hosts/node';
import { sentence, spokenFile } from '../testing/speech';
import { sharedMedia } from './bench-media';

const RATE = 16_000;
const option = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? (process.argv[i + 1] ?? null) : null;
};

/** Sentences spoken by espeak-ng in held-out voices, two per language. */
function syntheticCorpus(): { name: string; path: string; text: string }[] {
  const dir = mkdtempSync(join(tmpdir(), 'murmur-denoise-speech-'));
  return (['en', 'fr', 'de', 'es'] as const).flatMap((language, i) =>
    [0, 1].map((k) => {
      const file = spokenFile(
        dir,
        `${language}-${k}`,
        [{ language, text: sentence(language, 700 + 2 * i + k, 9) }],
        0.3,
      );
      return { name: `${language}-${k}`, path: file.path, text: file.text };
    }),
  );
}

/** Clean clips with their transcripts. */
function corpus(): { name: string; path: string; text: string }[] {
  if (option('speech') === 'synthetic') return syntheticCorpus();
  const lj = readFileSync(sharedMedia('speech/ljspeech/metadata.csv'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split('|'))
    .map(([id, , normalized]) => ({
      name: id!,
      path: sharedMedia(`speech/ljspeech/${id}.wav`),
      text: normalized!,
    }));
  return [
    ...lj,
    {
      name: 'jfk',
      path: sharedMedia('speech/jfk.wav'),
      text: 'And so my fellow Americans, ask not what your country can do for you, ask what you can do for your country.',
    },
    {
      name: 'LDC93S1',
      path: sharedMedia('speech/LDC93S1.wav'),
      text: 'She had your dark suit in greasy wash water all year.',
    },
    {
      name: 'beckett',
      path: sharedMedia('speech/beckett.wav'),
      text: 'Ever tried. Ever failed. No matter. Try again. Fail again. Fail better.',
    },
  ];
}

function read16k(path: string): Float32Array {
  const raw = execFileSync(
    'ffmpeg',
    ['-v', 'error', '-i', path, '-ac', '1', '-ar', String(RATE), '-f', 'f32le', '-'],
    {
      maxBuffer: 1 << 28,
    },
  );
  return new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length));
}

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const energy = (x: Float32Array) => x.reduce((sum, v) => sum + v * v, 0);

/** Noise of a kind, as long as `length`. */
function noise(kind: string, length: number, others: Float32Array[], seed: number): Float32Array {
  const random = seeded(seed);
  const out = new Float32Array(length);
  if (kind === 'white') {
    for (let i = 0; i < length; i++) out[i] = random() * 2 - 1;
  } else if (kind === 'pink') {
    // Paul Kellet's filter over white noise.
    let b0 = 0;
    let b1 = 0;
    let b2 = 0;
    for (let i = 0; i < length; i++) {
      const w = random() * 2 - 1;
      b0 = 0.99765 * b0 + w * 0.099046;
      b1 = 0.963 * b1 + w * 0.2965164;
      b2 = 0.57 * b2 + w * 1.0526913;
      out[i] = b0 + b1 + b2 + w * 0.1848;
    }
  } else {
    // Babble: four other talkers at once, each from a random place.
    for (let t = 0; t < 4; t++) {
      const other = others[Math.floor(random() * others.length)]!;
      const offset = Math.floor(random() * other.length);
      for (let i = 0; i < length; i++) out[i]! += other[(offset + i) % other.length]!;
    }
  }
  return out;
}

function mix(clean: Float32Array, n: Float32Array, snrDb: number): Float32Array {
  const gain = Math.sqrt(energy(clean) / (energy(n) * 10 ** (snrDb / 10)));
  return clean.map((s, i) => s + gain * n[i]!);
}

/** Scale-invariant signal-to-distortion ratio of `estimate` against `reference`, in dB. */
function siSdr(estimate: Float32Array, reference: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < reference.length; i++) dot += estimate[i]! * reference[i]!;
  const alpha = dot / energy(reference);
  let target = 0;
  let residual = 0;
  for (let i = 0; i < reference.length; i++) {
    const t = alpha * reference[i]!;
    target += t * t;
    residual += (estimate[i]! - t) ** 2;
  }
  return 10 * Math.log10(target / Math.max(residual, 1e-20));
}

/** Log-spectral distance in dB over 512-sample frames (a plain DFT of 64 bands is enough). */
function logSpectralDistance(a: Float32Array, b: Float32Array): number {
  const frame = 512;
  const bands = 64;
  let total = 0;
  let frames = 0;
  for (let start = 0; start + frame <= a.length; start += frame) {
    let sum = 0;
    for (let k = 1; k <= bands; k++) {
      const f = (k * frame) / (2 * bands);
      let ar = 0;
      let ai = 0;
      let br = 0;
      let bi = 0;
      for (let n = 0; n < frame; n += 2) {
        const angle = (2 * Math.PI * f * n) / frame;
        const c = Math.cos(angle);
        const s = Math.sin(angle);
        ar += a[start + n]! * c;
        ai += a[start + n]! * s;
        br += b[start + n]! * c;
        bi += b[start + n]! * s;
      }
      const pa = 10 * Math.log10(ar * ar + ai * ai + 1e-10);
      const pb = 10 * Math.log10(br * br + bi * bi + 1e-10);
      sum += (pa - pb) ** 2;
    }
    total += Math.sqrt(sum / bands);
    frames++;
  }
  return total / Math.max(1, frames);
}

/** Word error rate of a hypothesis against a reference, after lower-casing and stripping. */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const words = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9' ]+/g, ' ')
      .split(/\s+/)
      .filter(Boolean);
  const r = words(reference);
  const h = words(hypothesis);
  let previous = Array.from({ length: h.length + 1 }, (_, j) => j);
  for (let i = 1; i <= r.length; i++) {
    const row = [i];
    for (let j = 1; j <= h.length; j++) {
      row[j] = Math.min(
        previous[j]! + 1,
        row[j - 1]! + 1,
        previous[j - 1]! + (r[i - 1] === h[j - 1] ? 0 : 1),
      );
    }
    previous = row;
  }
  return previous[h.length]! / Math.max(1, r.length);
}

const filters = (
  option('filters') ??
  `${WIENER};${DENOISE_FILTER};afftdn;highpass=f=80,${DENOISE_FILTER};afftdn=nr=20:nf=-30:tn=1;anlmdn`
).split(';');
const conditions = [
  { noise: 'clean', snr: Infinity },
  ...['white', 'pink', 'babble'].flatMap((kind) =>
    [0, 5, 10, 20].map((snr) => ({ noise: kind, snr })),
  ),
];

const clips = corpus().map((c) => ({ ...c, clean: read16k(c.path) }));
const ffmpeg = nodeFfmpeg();
const rows: Record<string, string | number>[] = [];
const noisyInputs = new Map<string, Float32Array[]>();
for (const condition of conditions) {
  noisyInputs.set(
    `${condition.noise}@${condition.snr}`,
    clips.map((clip, i) =>
      condition.noise === 'clean'
        ? clip.clean
        : mix(
            clip.clean,
            noise(
              condition.noise,
              clip.clean.length,
              clips.filter((o) => o !== clip).map((o) => o.clean),
              1000 + i,
            ),
            condition.snr,
          ),
    ),
  );
}

for (const filter of filters) {
  const row: Record<string, string | number> = { filter };
  let seconds = 0;
  let audioSeconds = 0;
  for (const condition of conditions) {
    const noisy = noisyInputs.get(`${condition.noise}@${condition.snr}`)!;
    let gain = 0;
    let lsd = 0;
    for (const [i, clip] of clips.entries()) {
      const started = performance.now();
      const out =
        filter === WIENER
          ? spectralDenoise(noisy[i]!)
          : await denoiseChannel(ffmpeg, noisy[i]!, { filter });
      seconds += (performance.now() - started) / 1000;
      audioSeconds += clip.clean.length / RATE;
      if (condition.noise === 'clean') {
        gain += siSdr(out, clip.clean);
        lsd += logSpectralDistance(out, clip.clean);
      } else {
        gain += siSdr(out, clip.clean) - siSdr(noisy[i]!, clip.clean);
      }
    }
    console.error(`  ${filter}: ${condition.noise} ${condition.snr} dB done`);
    if (condition.noise === 'clean') {
      row['clean SI-SDR'] = +(gain / clips.length).toFixed(1);
      row['clean LSD'] = +(lsd / clips.length).toFixed(2);
    } else {
      row[`${condition.noise} ${condition.snr}dB`] = +(gain / clips.length).toFixed(1);
    }
  }
  row['x realtime'] = Math.round(audioSeconds / seconds);
  rows.push(row);
  console.error(`measured ${filter}`);
}

console.log(
  `SI-SDR improvement in dB (mean over ${clips.length} clips; clean: SI-SDR of output vs input, LSD in dB)`,
);
console.table(rows);

const models = option('models');
if (models !== null) {
  // Whole-pipeline WER with and without noise reduction (needs a trained recogniser).
  const { runPipeline } = await import('../../src/engine/pipeline');
  const { diskFile, nodeEnginePorts } = await import('../../src/hosts/node');
  const { mediaRequest } = await import('../testing/ffmpeg-fixtures');
  const { DEFAULT_WHISPER } = await import('../../src/core/model-catalog');
  const modelId = option('model') ?? DEFAULT_WHISPER;
  const vadModel = option('vad-model');
  const ports = nodeEnginePorts({
    models,
    model: modelId,
    ...(vadModel !== null ? { vadModel } : {}),
  });
  const dir = mkdtempSync(join(tmpdir(), 'murmur-denoise-'));
  const werRows: Record<string, string | number>[] = [];
  try {
    for (const condition of conditions) {
      const noisy = noisyInputs.get(`${condition.noise}@${condition.snr}`)!;
      const row: Record<string, string | number> = {
        condition: `${condition.noise}${condition.noise === 'clean' ? '' : ` ${condition.snr} dB`}`,
      };
      for (const reduce of [false, true]) {
        let errors = 0;
        for (const [i, clip] of clips.entries()) {
          const path = join(dir, `${basename(clip.name)}.f32.wav`);
          const pcm = noisy[i]!;
          const wav = Buffer.alloc(44 + pcm.length * 4);
          wav.write('RIFF', 0);
          wav.writeUInt32LE(36 + pcm.length * 4, 4);
          wav.write('WAVEfmt ', 8);
          wav.writeUInt32LE(16, 16);
          wav.writeUInt16LE(3, 20);
          wav.writeUInt16LE(1, 22);
          wav.writeUInt32LE(RATE, 24);
          wav.writeUInt32LE(RATE * 4, 28);
          wav.writeUInt16LE(4, 32);
          wav.writeUInt16LE(32, 34);
          wav.write('data', 36);
          wav.writeUInt32LE(pcm.length * 4, 40);
          Buffer.from(pcm.buffer, pcm.byteOffset, pcm.length * 4).copy(wav, 44);
          writeFileSync(path, wav);
          const file = (await diskFile(path))!;
          const response = await runPipeline(
            mediaRequest(
              { kind: 'file', file },
              { toggle_noise_reduction: reduce, output_format: 'txt' },
            ),
            ports,
          );
          const text = response.prediction_raw.transcription.map((s) => s.transcription).join(' ');
          errors += wordErrorRate(clip.text, text);
        }
        row[reduce ? 'WER with noise reduction' : 'WER without'] = +(
          (100 * errors) /
          clips.length
        ).toFixed(1);
      }
      werRows.push(row);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`WER in % (mean over clips), model ${modelId}`);
  console.table(werRows);
}
