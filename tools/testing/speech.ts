/**
 * Generated speech for tests and benchmarks: sentences drawn from the shared vocabularies,
 * spoken by espeak-ng with voice variants, speeds and pitches that the test model was not
 * trained on, decoded to 16 kHz mono float32 with Debian's ffmpeg.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SHARED =
  process.env.MURMUR_SHARED ?? fileURLToPath(new URL('../../../shared/', import.meta.url));
export const LANGUAGES = ['en', 'fr', 'de', 'es'] as const;
export type TestLanguage = (typeof LANGUAGES)[number];

const VOICES: Record<TestLanguage, string> = { en: 'en-us', fr: 'fr', de: 'de', es: 'es' };
/** Voice variants, speeds and pitches held out of the test model's training. */
export const HELD_OUT = {
  variants: ['m3', 'f2', 'klatt4', 'Andy', 'linda', 'max'],
  speeds: [145, 175],
  pitches: [45, 75],
};

export function vocabulary(language: TestLanguage): string[] {
  return readFileSync(join(SHARED, 'test-corpus', `vocabulary.${language}.txt`), 'utf8')
    .split(/\s+/)
    .filter(Boolean);
}

/** A repeatable stream of numbers in [0, 1) from a seed. */
export function seededRandom(seed: number): () => number {
  let state = (seed * 2654435761) >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 2246822519) + 0x9e3779b9) >>> 0;
    return state / 4294967296;
  };
}

/** A repeatable pseudo-random sentence of `length` vocabulary words. */
export function sentence(language: TestLanguage, seed: number, length: number): string {
  const words = vocabulary(language);
  const next = seededRandom(seed);
  return Array.from({ length }, () => words[Math.floor(next() * words.length)]!).join(' ');
}

export function scratchDir(): string {
  return mkdtempSync(join(tmpdir(), 'murmur-'));
}

export interface Voice {
  variant: string;
  speed: number;
  pitch: number;
}

/** Speaks text into a WAV file (espeak-ng's own 22.05 kHz output). */
export function speak(language: TestLanguage, text: string, voice: Voice, path: string): string {
  execFileSync('espeak-ng', [
    '-v',
    `${VOICES[language]}+${voice.variant}`,
    '-s',
    String(voice.speed),
    '-p',
    String(voice.pitch),
    '-w',
    path,
    text,
  ]);
  return path;
}

/** Any media file as 16 kHz mono float32 samples (channel `channel`, or a mix of all). */
export function pcm16k(path: string, channel?: number): Float32Array {
  const filter = channel === undefined ? ['-ac', '1'] : ['-af', `pan=mono|c0=c${channel}`];
  const out = execFileSync(
    'ffmpeg',
    ['-v', 'error', '-i', path, ...filter, '-ar', '16000', '-f', 'f32le', '-'],
    { maxBuffer: 1 << 30 },
  );
  return new Float32Array(out.buffer, out.byteOffset, out.byteLength / 4);
}

/** Silence of the given length. */
export function silence(seconds: number): Float32Array {
  return new Float32Array(Math.round(seconds * 16000));
}

export function concat(...parts: Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export interface SpokenFile {
  path: string;
  text: string;
}

/**
 * A 16 kHz mono WAV of utterances spoken with held-out voices, each padded with `pauseSeconds`
 * of silence on both sides, joined with sox.
 */
export function spokenFile(
  dir: string,
  name: string,
  parts: readonly { language: TestLanguage; text: string }[],
  pauseSeconds = 0.8,
): SpokenFile {
  const pieces = parts.map((part, i) => {
    const voice = {
      variant: HELD_OUT.variants[i % HELD_OUT.variants.length]!,
      speed: HELD_OUT.speeds[i % HELD_OUT.speeds.length]!,
      pitch: HELD_OUT.pitches[i % HELD_OUT.pitches.length]!,
    };
    const raw = speak(part.language, part.text, voice, join(dir, `${name}-${i}.raw.wav`));
    const padded = join(dir, `${name}-${i}.wav`);
    const pad = String(pauseSeconds);
    // -D: sox dithers by default when it resamples to 16 bits, with random noise, and the
    // same text would give different audio (and a different transcript) on every run.
    execFileSync('sox', ['-V1', '-D', raw, '-r', '16000', '-c', '1', padded, 'pad', pad, pad]);
    return padded;
  });
  const path = join(dir, `${name}.wav`);
  execFileSync('sox', ['-V1', '-D', ...pieces, path]);
  return { path, text: parts.map((p) => p.text).join(' ') };
}
