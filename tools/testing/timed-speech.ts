/**
 * Generated speech whose word times are known: each word spoken on its own by espeak-ng (a
 * voice the test model was not trained on), its silences trimmed, the words then joined with
 * pauses of repeatable, varied lengths. A word starts where its trimmed sound starts.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { concat, HELD_OUT, pcm16k, seededRandom, speak, type TestLanguage } from './speech';
import { writeWav } from './wav';

export interface KnownWord {
  text: string;
  start: number;
  end: number;
}

export interface TimedSpeech {
  path: string;
  words: KnownWord[];
}

const SAMPLE_RATE = 16_000;

export function timedSpeech(
  dir: string,
  name: string,
  language: TestLanguage,
  text: string,
  seed: number,
  /** Silence before the first word and after the last. */
  edgeSeconds = 0.8,
): TimedSpeech {
  const words = text.split(/\s+/).filter(Boolean);
  const next = seededRandom(seed);
  const voice = {
    variant: HELD_OUT.variants[seed % HELD_OUT.variants.length]!,
    speed: HELD_OUT.speeds[seed % HELD_OUT.speeds.length]!,
    pitch: HELD_OUT.pitches[seed % HELD_OUT.pitches.length]!,
  };
  const pieces: Float32Array[] = [new Float32Array(Math.round(edgeSeconds * SAMPLE_RATE))];
  const known: KnownWord[] = [];
  let at = pieces[0]!.length;
  words.forEach((word, i) => {
    const raw = speak(language, word, voice, join(dir, `${name}-${i}.raw.wav`));
    const trimmed = join(dir, `${name}-${i}.wav`);
    // Silence at both ends removed (sox trims the start; reversed, the end).
    execFileSync('sox', [
      '-V1',
      '-D',
      raw,
      '-r',
      String(SAMPLE_RATE),
      '-c',
      '1',
      trimmed,
      'silence',
      '1',
      '0.01',
      '0.5%',
      'reverse',
      'silence',
      '1',
      '0.01',
      '0.5%',
      'reverse',
    ]);
    const samples = pcm16k(trimmed);
    known.push({ text: word, start: at / SAMPLE_RATE, end: (at + samples.length) / SAMPLE_RATE });
    pieces.push(samples);
    at += samples.length;
    const pause = i === words.length - 1 ? edgeSeconds : 0.06 + next() * 0.3;
    const gap = new Float32Array(Math.round(pause * SAMPLE_RATE));
    pieces.push(gap);
    at += gap.length;
  });
  const path = join(dir, `${name}.wav`);
  writeWav(path, [concat(...pieces)]);
  return { path, words: known };
}
