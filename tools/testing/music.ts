/**
 * Generated music beds and noise for the speech-under-music tests and evaluation: a melody, a
 * chord progression and a drum kit, so that the bed changes from beat to beat as music does
 * (a detector tuned on stationary noise would pass it easily). Everything is 16 kHz mono and
 * repeatable from a seed; no media is stored.
 */

const RATE = 16000;

/** A repeatable generator in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = (seed * 2654435761 + 7) >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 2246822519) + 0x9e3779b9) >>> 0;
    state = (state ^ (state >>> 13)) >>> 0;
    return state / 4294967296;
  };
}

export interface MusicOptions {
  seconds: number;
  seed: number;
  /** Beats per minute; drawn from 80-140 by the seed when not given. */
  tempo?: number;
}

/** Semitones of a major and a minor scale. */
const SCALES = [
  [0, 2, 4, 5, 7, 9, 11],
  [0, 2, 3, 5, 7, 8, 10],
];
/** Chord roots as scale degrees: common progressions. */
const PROGRESSIONS = [
  [0, 4, 5, 3],
  [0, 5, 3, 4],
  [5, 3, 0, 4],
  [0, 3, 4, 4],
];

const hz = (midi: number) => 440 * 2 ** ((midi - 69) / 12);

/** Adds a tone with a few harmonics and an attack-decay envelope into `out`. */
function addNote(
  out: Float32Array,
  at: number,
  seconds: number,
  frequency: number,
  gain: number,
  harmonics: readonly number[],
  decay: number,
): void {
  const start = Math.round(at * RATE);
  const length = Math.min(out.length - start, Math.round(seconds * RATE));
  const attack = Math.round(0.01 * RATE);
  for (let i = 0; i < length; i++) {
    const t = i / RATE;
    const envelope =
      Math.min(1, i / attack) * Math.exp(-t / decay) * Math.min(1, (length - i) / attack);
    let s = 0;
    for (let h = 0; h < harmonics.length; h++) {
      const f = frequency * (h + 1);
      if (f < RATE / 2) s += harmonics[h]! * Math.sin(2 * Math.PI * f * t);
    }
    out[start + i]! += gain * envelope * s;
  }
}

/** Adds a drum hit: a falling sine for the kick, filtered noise for snare and hi-hat. */
function addDrum(
  out: Float32Array,
  at: number,
  kind: 'kick' | 'snare' | 'hat',
  gain: number,
  random: () => number,
): void {
  const start = Math.round(at * RATE);
  const seconds = kind === 'kick' ? 0.25 : kind === 'snare' ? 0.18 : 0.05;
  const length = Math.min(out.length - start, Math.round(seconds * RATE));
  let phase = 0;
  let low = 0;
  for (let i = 0; i < length; i++) {
    const t = i / RATE;
    let s: number;
    if (kind === 'kick') {
      phase += (2 * Math.PI * (50 + 100 * Math.exp(-t / 0.03))) / RATE;
      s = Math.sin(phase) * Math.exp(-t / 0.08);
    } else {
      const noise = random() * 2 - 1;
      // A one-pole low-pass; the hi-hat keeps what it takes out (a high-pass).
      low += 0.3 * (noise - low);
      const tone = kind === 'snare' ? 0.5 * Math.sin(2 * Math.PI * 190 * t) : 0;
      s = ((kind === 'hat' ? noise - low : noise) + tone) * Math.exp(-t / (seconds / 4));
    }
    out[start + i]! += gain * s;
  }
}

/**
 * A music bed: a chord progression (one chord a bar, sustained pad), a bass note on each beat,
 * a melody of eighth and quarter notes drawn from the scale, and a drum pattern (kick, snare on
 * the back beats, hi-hats), with the key, scale, tempo, progression and timbres drawn from the
 * seed. Peak-normalised to 0.9.
 */
export function musicBed(options: MusicOptions): Float32Array {
  const random = seededRandom(options.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const out = new Float32Array(Math.round(options.seconds * RATE));
  const tempo = options.tempo ?? 80 + Math.floor(random() * 60);
  const beat = 60 / tempo;
  const key = 48 + Math.floor(random() * 12);
  const scale = pick(SCALES);
  const progression = pick(PROGRESSIONS);
  const padTimbre = [1, 0.3 + random() * 0.4, 0.2, 0.1];
  const leadTimbre = [1, random() * 0.6, random() * 0.4, random() * 0.2, 0.1];
  const note = (degree: number, octave: number) =>
    key + 12 * (octave + Math.floor(degree / 7)) + scale[((degree % 7) + 7) % 7]!;
  const bars = Math.ceil(options.seconds / (4 * beat));
  for (let bar = 0; bar < bars; bar++) {
    const at = bar * 4 * beat;
    const root = progression[bar % progression.length]!;
    for (const step of [0, 2, 4]) {
      addNote(out, at, 4 * beat, hz(note(root + step, 0)), 0.12, padTimbre, 2.5);
    }
    for (let b = 0; b < 4; b++) {
      addNote(out, at + b * beat, beat * 0.9, hz(note(root, -1)), 0.25, [1, 0.5, 0.2], 0.4);
      addDrum(out, at + b * beat, b % 2 === 0 ? 'kick' : 'snare', b % 2 === 0 ? 0.6 : 0.35, random);
      addDrum(out, at + (b + 0.5) * beat, 'hat', 0.12, random);
    }
    // The melody walks the scale around the chord, with a rest now and then.
    let t = 0;
    let degree = root + 7;
    while (t < 4) {
      const length = random() < 0.6 ? 0.5 : 1;
      if (random() > 0.15) {
        addNote(out, at + t * beat, length * beat, hz(note(degree, 1)), 0.2, leadTimbre, 0.5);
      }
      degree += pick([-2, -1, -1, 1, 1, 2, 3, -3]);
      degree = Math.max(root + 2, Math.min(root + 12, degree));
      t += length;
    }
  }
  return normalisePeak(out, 0.9);
}

/** Noise with a pink-like (1/f) spectrum, peak-normalised to 0.9: steady hiss and rumble. */
export function pinkNoise(seconds: number, seed: number): Float32Array {
  const random = seededRandom(seed);
  const out = new Float32Array(Math.round(seconds * RATE));
  // Paul Kellet's economy filter: three one-pole sections of white noise.
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  for (let i = 0; i < out.length; i++) {
    const white = random() * 2 - 1;
    b0 = 0.99765 * b0 + white * 0.099046;
    b1 = 0.963 * b1 + white * 0.2965164;
    b2 = 0.57 * b2 + white * 1.0526913;
    out[i] = b0 + b1 + b2 + white * 0.1848;
  }
  return normalisePeak(out, 0.9);
}

function normalisePeak(samples: Float32Array, peak: number): Float32Array {
  let max = 0;
  for (const s of samples) max = Math.max(max, Math.abs(s));
  if (max > 0) for (let i = 0; i < samples.length; i++) samples[i] = (samples[i]! * peak) / max;
  return samples;
}

/** Mean power of the samples where `mask` holds (all of them without one). */
export function meanPower(samples: Float32Array, from = 0, to = samples.length): number {
  let sum = 0;
  for (let i = from; i < to; i++) sum += samples[i]! * samples[i]!;
  return to > from ? sum / (to - from) : 0;
}

/**
 * Speech over a bed at a signal-to-noise ratio: the bed is scaled so that the speech's power
 * over its voiced spans (`voiced`, in samples) is `snrDb` above the bed's power over the same
 * spans; the sum is scaled down if it would clip.
 */
export function mixAtSnr(
  speech: Float32Array,
  bed: Float32Array,
  voiced: readonly { from: number; to: number }[],
  snrDb: number,
): Float32Array {
  let speechPower = 0;
  let bedPower = 0;
  let n = 0;
  for (const v of voiced) {
    speechPower += meanPower(speech, v.from, v.to) * (v.to - v.from);
    bedPower += meanPower(bed, v.from, v.to) * (v.to - v.from);
    n += v.to - v.from;
  }
  if (n === 0 || bedPower === 0) throw new RangeError('Nothing voiced to measure the ratio on.');
  const gain = Math.sqrt(speechPower / bedPower / 10 ** (snrDb / 10));
  const out = new Float32Array(speech.length);
  let peak = 0;
  for (let i = 0; i < out.length; i++) {
    out[i] = speech[i]! + gain * (bed[i % bed.length] ?? 0);
    peak = Math.max(peak, Math.abs(out[i]!));
  }
  return peak > 0.98 ? normalisePeak(out, 0.98) : out;
}
