/**
 * Sentences spoken in the four manners the emotion test model knows (pitch, rate and loudness
 * of espeak-ng, as `tools/models/emotion/manners.py` trains them), by held-out voices, each
 * padded with silence and joined into one recording whose sentences' true manners are known.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { HELD_OUT, pcm16k, sentence, type TestLanguage } from './speech';

/** The emotion each manner stands for, as Murmur names it. */
export const MANNERS = {
  neutral: { speed: 158, pitch: 50, amplitude: 100 },
  happy: { speed: 190, pitch: 88, amplitude: 135 },
  sad: { speed: 102, pitch: 15, amplitude: 60 },
  angry: { speed: 220, pitch: 34, amplitude: 185 },
} as const;
export type Manner = keyof typeof MANNERS;

const VOICES: Record<TestLanguage, string> = { en: 'en-us', fr: 'fr', de: 'de', es: 'es' };

export interface MannerSentence {
  text: string;
  manner: Manner;
}

export interface MannerRecording {
  path: string;
  /** Where each part was said, in seconds from the start (its silence left out). */
  spans: { begin: number; end: number }[];
}

/** The part said during `at` seconds, or undefined in the silence between parts. */
export function partAt(recording: MannerRecording, at: number): number | undefined {
  const i = recording.spans.findIndex((s) => at >= s.begin && at <= s.end);
  return i < 0 ? undefined : i;
}

/**
 * A 16 kHz mono WAV of `parts`, each spoken in its manner by a held-out voice, with
 * `pauseSeconds` of silence around each.
 */
export function mannerRecording(
  dir: string,
  name: string,
  language: TestLanguage,
  parts: readonly MannerSentence[],
  pauseSeconds = 0.8,
): MannerRecording {
  let at = 0;
  const spans: MannerRecording['spans'] = [];
  const pieces = parts.map((part, i) => {
    const { speed, pitch, amplitude } = MANNERS[part.manner];
    const variant = HELD_OUT.variants[i % HELD_OUT.variants.length]!;
    const raw = join(dir, `${name}-${i}.raw.wav`);
    execFileSync('espeak-ng', [
      ...['-v', `${VOICES[language]}+${variant}`],
      ...['-s', String(speed), '-p', String(pitch), '-a', String(amplitude)],
      ...['-w', raw, part.text],
    ]);
    const padded = join(dir, `${name}-${i}.wav`);
    const pad = String(pauseSeconds);
    execFileSync('sox', ['-V1', '-D', raw, '-r', '16000', '-c', '1', padded, 'pad', pad, pad]);
    const seconds = pcm16k(padded).length / 16000;
    spans.push({ begin: at + pauseSeconds, end: at + seconds - pauseSeconds });
    at += seconds;
    return padded;
  });
  const path = join(dir, `${name}.wav`);
  execFileSync('sox', ['-V1', '-D', ...pieces, path]);
  return { path, spans };
}

/** `count` sentences of 5 to 10 words from the test vocabulary, in turn in each manner. */
export function mannerSentences(
  language: TestLanguage,
  seed: number,
  count: number,
): MannerSentence[] {
  const manners = Object.keys(MANNERS) as Manner[];
  return Array.from({ length: count }, (_, i) => ({
    text: sentence(language, seed + i, 5 + ((seed + i) % 6)),
    manner: manners[i % manners.length]!,
  }));
}
