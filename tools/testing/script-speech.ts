/**
 * Generated scripts and recordings of them, for script alignment: lines of vocabulary words
 * spoken by espeak-ng (a held-out voice), each line's sound trimmed and the lines joined with
 * pauses, so that each line's true start and end are known. Some lines of a script may be left
 * out of the recording (lines never said), and the script may be written as people write:
 * capitals, commas, an exclamation mark, an ellipsis, a number as digits.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import {
  concat,
  HELD_OUT,
  pcm16k,
  seededRandom as random,
  speak,
  vocabulary,
  type TestLanguage,
} from './speech';
import { writeWav } from './wav';

const SAMPLE_RATE = 16_000;

export { seededRandom as random } from './speech';

export interface SpokenLine {
  /** The line as said (lower case, vocabulary words). */
  said: string;
  start: number;
  end: number;
}

/** Lines spoken one after the other with pauses; each line's time in the recording. */
export function spokenLines(
  dir: string,
  name: string,
  language: TestLanguage,
  lines: readonly string[],
  seed: number,
): { path: string; lines: SpokenLine[] } {
  const next = random(seed + 7);
  const voice = {
    variant: HELD_OUT.variants[seed % HELD_OUT.variants.length]!,
    speed: HELD_OUT.speeds[seed % HELD_OUT.speeds.length]!,
    pitch: HELD_OUT.pitches[seed % HELD_OUT.pitches.length]!,
  };
  const edge = 0.8;
  const pieces: Float32Array[] = [new Float32Array(edge * SAMPLE_RATE)];
  let at = pieces[0]!.length;
  const timed: SpokenLine[] = lines.map((said, i) => {
    const raw = speak(language, said, voice, join(dir, `${name}-${i}.raw.wav`));
    const trimmed = join(dir, `${name}-${i}.wav`);
    // Silence at both ends removed (sox trims the start; reversed, the end).
    const trim = ['silence', '1', '0.01', '0.5%'];
    execFileSync('sox', [
      ...['-V1', '-D', raw, '-r', String(SAMPLE_RATE), '-c', '1', trimmed],
      ...[...trim, 'reverse', ...trim, 'reverse'],
    ]);
    const samples = pcm16k(trimmed);
    const line = { said, start: at / SAMPLE_RATE, end: (at + samples.length) / SAMPLE_RATE };
    const gap = new Float32Array(
      Math.round((i === lines.length - 1 ? edge : 0.5 + next() * 0.6) * SAMPLE_RATE),
    );
    pieces.push(samples, gap);
    at += samples.length + gap.length;
    return line;
  });
  const path = join(dir, `${name}.wav`);
  writeWav(path, [concat(...pieces)]);
  return { path, lines: timed };
}

/** `count` lines of `min` to `max` vocabulary words, no line repeated. */
export function scriptLines(
  language: TestLanguage,
  seed: number,
  count: number,
  min = 5,
  max = 9,
): string[] {
  const words = vocabulary(language);
  const next = random(seed);
  return Array.from({ length: count }, () => {
    const length = min + Math.floor(next() * (max - min + 1));
    return Array.from({ length }, () => words[Math.floor(next() * words.length)]!).join(' ');
  });
}

/** Number words of the vocabularies, and their digits. */
const DIGITS: Record<string, string> = {
  one: '1',
  two: '2',
  three: '3',
  four: '4',
  five: '5',
  six: '6',
  seven: '7',
  eight: '8',
  nine: '9',
  ten: '10',
  twenty: '20',
  hundred: '100',
  deux: '2',
  trois: '3',
  quatre: '4',
  cinq: '5',
  dix: '10',
  cent: '100',
  zwei: '2',
  drei: '3',
  vier: '4',
  fünf: '5',
  zehn: '10',
  hundert: '100',
  uno: '1',
  dos: '2',
  tres: '3',
  cuatro: '4',
  cinco: '5',
  diez: '10',
  cien: '100',
};

/**
 * A line written as a person types it: a capital first letter, a comma after a word, number
 * words as digits, and an end mark chosen by the seed (".", "!", "?" or "...").
 */
export function written(line: string, seed: number): string {
  const next = random(seed);
  const words = line.split(' ').map((w) => DIGITS[w] ?? w);
  const comma = 1 + Math.floor(next() * Math.max(1, words.length - 2));
  if (comma < words.length - 1) words[comma] = `${words[comma]},`;
  const first = words[0]!;
  words[0] = first.charAt(0).toUpperCase() + first.slice(1);
  const ends = ['.', '!', '?', '...'];
  return `${words.join(' ')}${ends[Math.floor(next() * ends.length)]}`;
}

/**
 * The line as said with one word more in the script, a word no vocabulary has (a name the
 * recogniser does not know, which the speaker left out).
 */
export function withUnknownWord(line: string, seed: number): string {
  const words = line.split(' ');
  const at = 1 + Math.floor(random(seed)() * (words.length - 1));
  return [...words.slice(0, at), 'Zorvaldi', ...words.slice(at)].join(' ');
}
