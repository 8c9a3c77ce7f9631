/**
 * The speech-under-music set: generated sentences spoken by held-out espeak-ng voices, laid on
 * a timeline with pauses, and mixed with a generated music bed at a chosen signal-to-noise
 * ratio; plus music alone and noise alone. Made on the fly from seeds: no media is stored.
 */
import { utterances } from './conversation';
import { meanPower, mixAtSnr, musicBed, pinkNoise, seededRandom } from './music';
import { HELD_OUT, scratchDir, sentence, type Voice } from './speech';

const RATE = 16000;

export interface Programme {
  /** The speech alone, 16 kHz mono. */
  speech: Float32Array;
  /** Where each sentence is voiced, in samples, and what it says. */
  sentences: { from: number; to: number; text: string }[];
}

export interface ProgrammeOptions {
  sentences: number;
  seed: number;
  /** Words per sentence (drawn from 6-11 when not given). */
  words?: number;
  /** Seconds before the first sentence and after the last. */
  marginSeconds?: number;
}

/**
 * Sentences spoken by the held-out voices in turn (variant, speed and pitch all change from
 * one to the next), 0.8-1.8 s apart.
 */
export function programme(options: ProgrammeOptions): Programme {
  const random = seededRandom(options.seed);
  const items = Array.from({ length: options.sentences }, (_, i) => {
    const voice: Voice = {
      variant: HELD_OUT.variants[(options.seed + i) % HELD_OUT.variants.length]!,
      speed: HELD_OUT.speeds[i % HELD_OUT.speeds.length]!,
      pitch: HELD_OUT.pitches[(i >> 1) % HELD_OUT.pitches.length]!,
    };
    const words = options.words ?? 6 + Math.floor(random() * 6);
    return { text: sentence('en', options.seed * 100 + i, words), voice };
  });
  const sounds = utterances(scratchDir(), items);
  const margin = Math.round((options.marginSeconds ?? 1.5) * RATE);
  const gaps = sounds.map(() => Math.round((0.8 + random()) * RATE));
  const length =
    2 * margin +
    sounds.reduce((n, s) => n + s.length, 0) +
    gaps.slice(1).reduce((n, g) => n + g, 0);
  const speech = new Float32Array(length);
  const sentences: Programme['sentences'] = [];
  let at = margin;
  sounds.forEach((sound, i) => {
    if (i > 0) at += gaps[i]!;
    speech.set(sound, at);
    sentences.push({ from: at, to: at + sound.length, text: items[i]!.text });
    at += sound.length;
  });
  return { speech, sentences };
}

/** The programme over a music bed (drawn from `bedSeed`) at `snrDb`. */
export function overMusic(p: Programme, snrDb: number, bedSeed: number): Float32Array {
  const bed = musicBed({ seconds: p.speech.length / RATE, seed: bedSeed });
  return mixAtSnr(p.speech, bed, p.sentences, snrDb);
}

/** Music alone at a typical mastered level (about -14 dBFS). */
export function musicAlone(seconds: number, seed: number): Float32Array {
  return atLevel(musicBed({ seconds, seed }), -14);
}

/** Pink noise alone at about -25 dBFS (a fan, a hiss, a room). */
export function noiseAlone(seconds: number, seed: number): Float32Array {
  return atLevel(pinkNoise(seconds, seed), -25);
}

function atLevel(samples: Float32Array, db: number): Float32Array {
  const gain = Math.sqrt(10 ** (db / 10) / Math.max(1e-12, meanPower(samples)));
  for (let i = 0; i < samples.length; i++)
    samples[i] = Math.max(-1, Math.min(1, samples[i]! * gain));
  return samples;
}

export interface AlternatingOptions {
  /** How many turns of speech, each followed by music. */
  blocks: number;
  /** Sentences in each turn of speech. */
  sentences: number;
  /** Seconds of music after each turn. */
  musicSeconds: number;
  seed: number;
}

/**
 * Speech and music in turn, as in a programme with musical breaks: each turn of sentences
 * (held-out voices, in the clear) is followed by a stretch of music alone, each bed drawn from
 * its own seed. Sentence spans are in samples from the start.
 */
export function alternating(options: AlternatingOptions): Programme {
  const parts: Float32Array[] = [];
  const sentences: Programme['sentences'] = [];
  let at = 0;
  for (let b = 0; b < options.blocks; b++) {
    const turn = programme({
      sentences: options.sentences,
      seed: options.seed * 1000 + b,
      marginSeconds: 1,
    });
    for (const s of turn.sentences) sentences.push({ ...s, from: s.from + at, to: s.to + at });
    const music = musicAlone(options.musicSeconds, options.seed * 1000 + b);
    parts.push(turn.speech, music);
    at += turn.speech.length + music.length;
  }
  const speech = new Float32Array(at);
  let offset = 0;
  for (const p of parts) {
    speech.set(p, offset);
    offset += p.length;
  }
  return { speech, sentences };
}
