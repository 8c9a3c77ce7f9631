/**
 * Recordings of passages on different topics, for chapters: each passage's sentences are drawn
 * from one theme of the test vocabularies (a line of content words) mixed with the language's
 * function words, spoken by espeak-ng (a held-out voice) with pauses of the same lengths
 * between all sentences, so that a topic change is found by the words alone. Each passage's
 * true start and end are known.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import stopWordLists from 'stopwords-iso/stopwords-iso.json' with { type: 'json' };
import {
  concat,
  HELD_OUT,
  pcm16k,
  seededRandom,
  SHARED,
  silence,
  speak,
  type TestLanguage,
} from './speech';
import { writeWav } from './wav';

const SAMPLE_RATE = 16_000;

export interface Theme {
  /** The line's content words (not stop words). */
  words: string[];
}

export interface VocabularyThemes {
  themes: Theme[];
  /** Words of the lines that are (nearly) all stop words: articles, pronouns, verbs... */
  functionWords: string[];
}

/** The themes of a language's vocabulary: its lines with six or more content words. */
export function vocabularyThemes(language: TestLanguage): VocabularyThemes {
  const stop = new Set(
    ((stopWordLists as Record<string, string[]>)[language] ?? []).map((w) => w.toLowerCase()),
  );
  const lines = readFileSync(join(SHARED, 'test-corpus', `vocabulary.${language}.txt`), 'utf8')
    .split('\n')
    .map((l) => l.split(/\s+/).filter(Boolean))
    .filter((l) => l.length > 0);
  const content = (line: string[]) => line.filter((w) => !stop.has(w.toLowerCase()));
  return {
    themes: lines.filter((l) => content(l).length >= 6).map((l) => ({ words: content(l) })),
    functionWords: lines.filter((l) => content(l).length < 3).flat(),
  };
}

export interface Passage {
  theme: Theme;
  sentences: { text: string; start: number; end: number }[];
  start: number;
  end: number;
}

export interface TopicRecording {
  path: string;
  duration: number;
  passages: Passage[];
}

export interface TopicRecordingOptions {
  passages: number;
  /** Each passage goes on until it is at least this long. */
  passageSeconds: number;
  /** Which theme each passage takes (indices into the language's themes); drawn when absent. */
  themes?: readonly number[];
}

/**
 * A 16 kHz WAV of `passages` passages, each on a theme of its own: sentences of 5 to 10 words,
 * about half of them the theme's, with 0.5-0.9 s pauses between every two sentences.
 */
export function topicRecording(
  dir: string,
  name: string,
  language: TestLanguage,
  seed: number,
  options: TopicRecordingOptions,
): TopicRecording {
  const next = seededRandom(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const { themes, functionWords } = vocabularyThemes(language);
  const chosen: number[] = [...(options.themes ?? [])];
  while (chosen.length < options.passages) {
    const t = Math.floor(next() * themes.length);
    if (!chosen.includes(t)) chosen.push(t);
  }
  const voice = {
    variant: HELD_OUT.variants[seed % HELD_OUT.variants.length]!,
    speed: HELD_OUT.speeds[seed % HELD_OUT.speeds.length]!,
    pitch: HELD_OUT.pitches[seed % HELD_OUT.pitches.length]!,
  };
  const pieces: Float32Array[] = [silence(0.5)];
  let at = 0.5;
  let n = 0;
  const passages: Passage[] = chosen.slice(0, options.passages).map((t) => {
    const theme = themes[t]!;
    const sentences: Passage['sentences'] = [];
    const start = at;
    while (at - start < options.passageSeconds) {
      const length = 5 + Math.floor(next() * 6);
      const words = Array.from({ length }, () =>
        next() < 0.5 ? pick(theme.words) : pick(functionWords),
      );
      const text = words.join(' ');
      const raw = speak(language, text, voice, join(dir, `${name}-${n}.raw.wav`));
      const trimmed = join(dir, `${name}-${n}.wav`);
      n += 1;
      const trim = ['silence', '1', '0.01', '0.5%'];
      execFileSync('sox', [
        ...['-V1', '-D', raw, '-r', String(SAMPLE_RATE), '-c', '1', trimmed],
        ...[...trim, 'reverse', ...trim, 'reverse'],
      ]);
      const samples = pcm16k(trimmed);
      sentences.push({ text, start: at, end: at + samples.length / SAMPLE_RATE });
      pieces.push(samples);
      at += samples.length / SAMPLE_RATE;
      const pause = 0.5 + next() * 0.4;
      pieces.push(silence(pause));
      at += pause;
    }
    return { theme, sentences, start, end: sentences[sentences.length - 1]!.end };
  });
  const path = join(dir, `${name}.wav`);
  writeWav(path, [concat(...pieces)]);
  return { path, duration: at, passages };
}
