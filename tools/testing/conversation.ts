/**
 * Generated conversations with known speaker turns, for the diarization tests and evaluation.
 * Every speaker is one espeak-ng voice variant the test models never heard (m3, m7, f3, f5,
 * klatt2) at its own pitch and speed, far enough apart that a person would tell them apart.
 * Turn times are the voiced extent of each utterance (espeak's own leading and trailing
 * silence trimmed), so a reference boundary is where speech really starts and stops.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { formatRttm, type SpeakerTurn } from '../../src/core/evaluation/rttm';
import { pcm16k, scratchDir, sentence, speak, type Voice } from './speech';
import { writeWav, type WavSampleFormat } from './wav';

const RATE = 16000;
/** Utterances spoken and resampled together. */
const BATCH = 8;

/** The voices, in the order speakers take them: each differs from its neighbours in all three. */
export const CONVERSATION_VOICES: readonly Voice[] = [
  { variant: 'm3', pitch: 30, speed: 150 },
  { variant: 'f3', pitch: 80, speed: 175 },
  { variant: 'm7', pitch: 55, speed: 190 },
  { variant: 'f5', pitch: 95, speed: 140 },
  { variant: 'klatt2', pitch: 40, speed: 165 },
];

/**
 * What the test models were never trained on (tools/models/diarization/conversations.py holds
 * them out): these variants, pitches within these bands and speeds within these bands.
 */
export const HELD_OUT_VOICES = {
  variants: ['m3', 'm7', 'f3', 'f5', 'klatt2'],
  pitches: [
    [29, 31],
    [46, 48],
    [63, 65],
    [80, 82],
  ],
  speeds: [
    [133, 137],
    [168, 172],
    [203, 207],
  ],
} as const;

/**
 * `count` held-out voices (up to 5) drawn at random from `seed`, each of its own variant, so
 * that a listener tells them apart: the variant, the pitch band and the speed band, and the
 * pitch and speed within the bands.
 */
export function heldOutVoices(count: number, seed: number): Voice[] {
  if (count > HELD_OUT_VOICES.variants.length) {
    throw new RangeError(`heldOutVoices: at most ${HELD_OUT_VOICES.variants.length} voices`);
  }
  const next = random(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
  const inBand = ([low, high]: readonly [number, number]) =>
    low + Math.floor(next() * (high - low + 1));
  const variants: string[] = [...HELD_OUT_VOICES.variants];
  return Array.from({ length: count }, () => {
    const variant = variants.splice(Math.floor(next() * variants.length), 1)[0]!;
    return {
      variant,
      pitch: inBand(pick(HELD_OUT_VOICES.pitches)),
      speed: inBand(pick(HELD_OUT_VOICES.speeds)),
    };
  });
}

export interface ConversationOptions {
  /** 2 to 4 people. */
  speakers: number;
  /** How many turns; or */
  turns?: number;
  /** turns are added until the speech reaches this many seconds. */
  seconds?: number;
  /** The share of turns (0 to 1) that start before the previous one ends. */
  overlapShare?: number;
  seed: number;
  /**
   * The speakers' voices, one each, in order (`speakers` of them), for a set of conversations
   * among the same people; by default each conversation takes its own from `CONVERSATION_VOICES`.
   */
  voices?: readonly Voice[];
}

export interface Conversation {
  /** 16 kHz mono. */
  samples: Float32Array;
  turns: SpeakerTurn[];
}

export interface ChannelTurn extends SpeakerTurn {
  channel: number;
}

export interface StereoCall {
  /** Two 16 kHz channels, one person on each. */
  channels: [Float32Array, Float32Array];
  turns: ChannelTurn[];
}

/** A repeatable generator in [0, 1). */
function random(seed: number): () => number {
  let state = (seed * 2654435761 + 1) >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 2246822519) + 0x9e3779b9) >>> 0;
    state = (state ^ (state >>> 13)) >>> 0;
    return state / 4294967296;
  };
}

const between = (next: () => number, low: number, high: number) => low + next() * (high - low);

/**
 * The voiced part of an utterance: from the first to the last 10-ms frame within 35 dB of the
 * loudest frame. espeak pads its output with silence that would widen every reference turn.
 */
export function voicedExtent(samples: Float32Array): { start: number; end: number } {
  const frame = RATE / 100;
  const levels: number[] = [];
  for (let at = 0; at < samples.length; at += frame) {
    let sum = 0;
    const end = Math.min(samples.length, at + frame);
    for (let i = at; i < end; i++) sum += samples[i]! * samples[i]!;
    levels.push(Math.sqrt(sum / Math.max(1, end - at)));
  }
  const threshold = Math.max(...levels, 0) * 10 ** (-35 / 20);
  const first = levels.findIndex((l) => l > threshold && l > 1e-4);
  if (first < 0) return { start: 0, end: 0 };
  let last = levels.length - 1;
  while (levels[last]! <= threshold) last--;
  return { start: first * frame, end: Math.min(samples.length, (last + 1) * frame) };
}

/** The samples and rate of a 16-bit mono PCM WAV file, such as espeak-ng writes. */
function readPcm16(path: string): { rate: number; samples: Float32Array } {
  const bytes = readFileSync(path);
  let at = 12;
  let rate = 0;
  while (at + 8 <= bytes.length) {
    const id = bytes.toString('ascii', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    if (id === 'fmt ') rate = bytes.readUInt32LE(at + 12);
    if (id === 'data') {
      const count = Math.floor(Math.min(size, bytes.length - at - 8) / 2);
      const samples = new Float32Array(count);
      for (let i = 0; i < count; i++) samples[i] = bytes.readInt16LE(at + 8 + 2 * i) / 32768;
      return { rate, samples };
    }
    at += 8 + size + (size % 2);
  }
  throw new Error(`${path}: no data chunk`);
}

/**
 * Utterances spoken one by one, then resampled to 16 kHz by a single ffmpeg run over all of
 * them laid end to end (ffmpeg's start-up cost is many times espeak's), each trimmed to its
 * voiced extent and brought to a common peak.
 */
export function utterances(
  dir: string,
  items: readonly { text: string; voice: Voice }[],
): Float32Array[] {
  const spoken = items.map((item, i) =>
    readPcm16(speak('en', item.text, item.voice, join(dir, `u${i}.wav`))),
  );
  const rate = spoken[0]?.rate ?? RATE;
  // A gap between utterances keeps the resampler's reach from carrying one into the next.
  const gap = Math.round(0.25 * rate);
  const offsets: number[] = [];
  let length = 0;
  for (const s of spoken) {
    offsets.push(length);
    length += s.samples.length + gap;
  }
  const joined = new Float32Array(length);
  spoken.forEach((s, i) => joined.set(s.samples, offsets[i]!));
  const all = pcm16k(writeWav(join(dir, 'joined.wav'), [joined], 'float32', rate));
  return spoken.map((s, i) => {
    const from = Math.round((offsets[i]! * RATE) / rate);
    const to = Math.min(all.length, Math.round(((offsets[i]! + s.samples.length) * RATE) / rate));
    const one = all.subarray(from, to);
    const { start, end } = voicedExtent(one);
    const voiced = one.slice(start, end);
    let peak = 0;
    for (const v of voiced) peak = Math.max(peak, Math.abs(v));
    // Two people at a common level; 0.5 leaves room for two at once without clipping much.
    const gain = peak > 0 ? 0.5 / peak : 1;
    for (let k = 0; k < voiced.length; k++) voiced[k]! *= gain;
    return voiced;
  });
}

const speakerName = (i: number) => String.fromCharCode(65 + i);

interface Placed {
  speaker: number;
  start: number;
  samples: Float32Array;
}

/** Turns placed on a timeline: who, when, and the sound. */
function placeTurns(
  options: ConversationOptions,
  allowOverlap: boolean,
): { placed: Placed[]; length: number } {
  const { speakers, seed } = options;
  const most = options.voices?.length ?? CONVERSATION_VOICES.length;
  if (!Number.isInteger(speakers) || speakers < 2 || speakers > most) {
    throw new RangeError(`conversation: speakers must be 2 to ${most}`);
  }
  if (options.turns === undefined && options.seconds === undefined) {
    throw new RangeError('conversation: give turns or seconds');
  }
  const next = random(seed);
  const overlapShare = allowOverlap ? (options.overlapShare ?? 0) : 0;
  // Each conversation starts at a different voice, so a set of them uses all five.
  const firstVoice = seed % CONVERSATION_VOICES.length;
  const voices =
    options.voices ??
    Array.from(
      { length: speakers },
      (_, i) => CONVERSATION_VOICES[(firstVoice + i) % CONVERSATION_VOICES.length]!,
    );
  // Everyone speaks once, in a shuffled order, before turns are drawn at random.
  const opening = Array.from({ length: speakers }, (_, i) => i);
  for (let i = opening.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [opening[i], opening[j]] = [opening[j]!, opening[i]!];
  }
  // Who speaks and what comes from a generator of its own, so that utterances can be spoken
  // a batch ahead of the timing drawn from `next`.
  const nextLine = random(seed + 7919);
  const lines: { speaker: number; text: string }[] = [];
  const sounds: Float32Array[] = [];
  const dir = scratchDir();
  const soundOf = (index: number): Float32Array => {
    while (sounds.length <= index) {
      const batch: { text: string; voice: Voice }[] = [];
      for (let k = 0; k < BATCH; k++) {
        const at = lines.length;
        const before = lines[at - 1]?.speaker;
        let speaker = opening[at] ?? Math.floor(nextLine() * speakers);
        if (speaker === before) {
          speaker = (speaker + 1 + Math.floor(nextLine() * (speakers - 1))) % speakers;
        }
        const words = 4 + Math.floor(nextLine() * 9);
        lines.push({ speaker, text: sentence('en', seed * 1000 + at, words) });
        batch.push({ text: lines[at]!.text, voice: voices[speaker]! });
      }
      const batchDir = join(dir, String(sounds.length));
      mkdirSync(batchDir);
      sounds.push(...utterances(batchDir, batch));
    }
    return sounds[index]!;
  };
  const placed: Placed[] = [];
  let lastEnd = 0.5 * RATE;
  /** Where the turns before the last one end, so that no three people speak at once. */
  let earlierEnd = 0;
  for (let index = 0; ; index++) {
    if (options.turns !== undefined && index >= options.turns) break;
    if (options.turns === undefined && lastEnd / RATE >= options.seconds! + 0.5) break;
    const previous = placed[placed.length - 1];
    const samples = soundOf(index);
    const speaker = lines[index]!.speaker;
    let start: number;
    if (previous && next() < overlapShare) {
      const wanted = lastEnd - Math.round(between(next, 0.3, 1.0) * RATE);
      // Not before the previous turn is under way, nor while an earlier one still sounds.
      start = Math.max(wanted, previous.start + 0.5 * RATE, earlierEnd + 0.2 * RATE);
    } else {
      start = lastEnd + Math.round(between(next, 0.2, 1.2) * RATE);
    }
    start = Math.max(start, earlierEnd + 0.2 * RATE);
    placed.push({ speaker, start, samples });
    earlierEnd = Math.max(earlierEnd, lastEnd);
    lastEnd = Math.max(lastEnd, start + samples.length);
    if (start + samples.length < lastEnd) earlierEnd = Math.max(earlierEnd, start + samples.length);
  }
  rmSync(dir, { recursive: true, force: true });
  return { placed, length: lastEnd + 0.5 * RATE };
}

function turnOf(p: Placed): SpeakerTurn {
  return {
    speaker: speakerName(p.speaker),
    start: p.start / RATE,
    end: (p.start + p.samples.length) / RATE,
  };
}

/**
 * A conversation among 2 to 4 people: sentences of 4 to 12 words, pauses of 0.2 to 1.2 s
 * between turns, and, for a share of turns, a start 0.3 to 1.0 s before the previous turn
 * ends. Speakers are named A, B, C, D. The same options give the same samples.
 */
export function conversation(options: ConversationOptions): Conversation {
  const { placed, length } = placeTurns(options, true);
  const samples = new Float32Array(length);
  for (const p of placed) {
    for (let i = 0; i < p.samples.length; i++) samples[p.start + i]! += p.samples[i]!;
  }
  return { samples, turns: placed.map(turnOf).sort((a, b) => a.start - b.start) };
}

/**
 * A phone call: two people taking turns, each on a channel of their own (A on channel 0, B on
 * channel 1), each channel silent while the other person speaks.
 */
export function stereoCall(options: { seed: number; turns: number }): StereoCall {
  const { placed, length } = placeTurns({ speakers: 2, ...options }, false);
  const channels: [Float32Array, Float32Array] = [
    new Float32Array(length),
    new Float32Array(length),
  ];
  for (const p of placed) channels[p.speaker]!.set(p.samples, p.start);
  return {
    channels,
    turns: placed.map((p) => ({ ...turnOf(p), channel: p.speaker })),
  };
}

/** The file id an RTTM uses for a media file: its name without the extension. */
export function fileId(path: string): string {
  return basename(path, extname(path));
}

/** Writes a conversation (mono) or a call (stereo) as a WAV file. */
export function writeConversationWav(
  path: string,
  audio: Conversation | StereoCall,
  format: WavSampleFormat = 'pcm16',
): string {
  return writeWav(path, 'samples' in audio ? [audio.samples] : audio.channels, format);
}

/** Writes the turns as RTTM, under the file id of `mediaPath`; channels count from 1. */
export function writeRttm(
  path: string,
  turns: readonly (SpeakerTurn & { channel?: number })[],
  mediaPath: string,
): string {
  const file = fileId(mediaPath);
  writeFileSync(
    path,
    turns.map((t) => formatRttm([t], { file, channel: (t.channel ?? 0) + 1 })).join(''),
  );
  return path;
}
