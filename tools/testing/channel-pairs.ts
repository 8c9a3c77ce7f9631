/**
 * Two-channel recordings made of generated speech, for the channel similarity check: pairs
 * that carry different content (which must stay two channels) and pairs that copy one
 * another (which must be billed once).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { concat, pcm16k, sentence, silence, speak, type Voice } from './speech';

export interface ChannelPair {
  name: string;
  left: Float32Array;
  right: Float32Array;
  /** Whether the right channel carries the left one's content. */
  copy: boolean;
}

const RATE = 16000;
const MALE: Voice = { variant: 'm3', speed: 160, pitch: 50 };
const FEMALE: Voice = { variant: 'f2', speed: 160, pitch: 50 };
const OTHER: Voice = { variant: 'klatt4', speed: 175, pitch: 75 };

function padTo(samples: Float32Array, length: number): Float32Array {
  const out = new Float32Array(length);
  out.set(samples.subarray(0, length));
  return out;
}

/** `a` plus `b` scaled by `gain`, as long as `a`. */
function mix(a: Float32Array, b: Float32Array, gain: number): Float32Array {
  const out = Float32Array.from(a);
  for (let i = 0; i < Math.min(a.length, b.length); i++) out[i]! += gain * b[i]!;
  return out;
}

function delay(samples: Float32Array, seconds: number): Float32Array {
  return concat(silence(seconds), samples).subarray(0, samples.length);
}

/** Mono samples through a WAV file, ffmpeg's encoder `args` and back to 16 kHz float. */
function reencode(dir: string, name: string, samples: Float32Array, args: string[]): Float32Array {
  const wav = join(dir, `${name}.f32.wav`);
  writeWav(wav, [samples]);
  const out = join(dir, `${name}.${args.includes('libmp3lame') ? 'mp3' : 'wav'}`);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', wav, ...args, out]);
  return padTo(pcm16k(out), samples.length);
}

/** Writes channels of 16 kHz float samples as a 16-bit PCM WAV file. */
export function writeWav(path: string, channels: readonly Float32Array[]): string {
  const frames = Math.max(...channels.map((c) => c.length));
  const n = channels.length;
  const data = Buffer.alloc(frames * n * 2);
  for (let i = 0; i < frames; i++) {
    for (let c = 0; c < n; c++) {
      const s = Math.max(-1, Math.min(1, channels[c]![i] ?? 0));
      data.writeInt16LE(Math.round(s * 32767), (i * n + c) * 2);
    }
  }
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(n, 22);
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * n * 2, 28);
  header.writeUInt16LE(n * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  writeFileSync(path, Buffer.concat([header, data]));
  return path;
}

/**
 * The pairs: two different sentences spoken at once (framed by the same silences, the case
 * level envelopes took for a copy), the same sentence in two voices, a phone call (turns
 * alternating, each side hearing the other 20 dB down), and copies delayed, attenuated,
 * re-encoded and under crosstalk 20 dB down.
 */
export function channelPairs(dir: string): ChannelPair[] {
  let n = 0;
  const say = (seed: number, voice: Voice, words = 9) =>
    pcm16k(speak('en', sentence('en', seed, words), voice, join(dir, `pair-${n++}.wav`)));
  const framed = (samples: Float32Array, length: number) =>
    concat(silence(1.5), padTo(samples, length), silence(1.5));

  const first = say(4001, MALE);
  const second = say(4002, { ...MALE, pitch: 60 });
  const length = Math.max(first.length, second.length);
  const sentenceA = framed(first, length);
  const sentenceB = framed(second, length);

  const sameText = 4003;
  const oneVoice = say(sameText, MALE, 12);
  const otherVoice = say(sameText, OTHER, 12);
  const both = Math.max(oneVoice.length, otherVoice.length);

  const turns = [say(4004, MALE, 6), say(4005, FEMALE, 6), say(4006, MALE, 6), say(4007, FEMALE)];
  const gap = silence(0.3);
  const side = (mine: number) =>
    concat(...turns.flatMap((t, i) => [i % 2 === mine ? t : new Float32Array(t.length), gap]));
  const caller = side(0);
  const callee = side(1);

  const spoken = say(4008, FEMALE, 14);
  const speech = framed(spoken, spoken.length);
  const talker = padTo(framed(say(4009, MALE, 14), speech.length - 3 * RATE), speech.length);
  return [
    { name: 'two sentences at once', left: sentenceA, right: sentenceB, copy: false },
    {
      name: 'one sentence in two voices',
      left: padTo(oneVoice, both),
      right: padTo(otherVoice, both),
      copy: false,
    },
    {
      name: 'a phone call',
      left: mix(caller, callee, 0.1),
      right: mix(callee, caller, 0.1),
      copy: false,
    },
    { name: 'a copy delayed 250 ms', left: speech, right: delay(speech, 0.25), copy: true },
    { name: 'a copy 26 dB down', left: speech, right: speech.map((s) => s * 0.05), copy: true },
    {
      name: 'a copy through mp3 at 24 kb/s',
      left: speech,
      right: reencode(dir, 'mp3', speech, ['-c:a', 'libmp3lame', '-b:a', '24k']),
      copy: true,
    },
    {
      name: 'a copy through 8 kHz mu-law',
      left: speech,
      right: reencode(dir, 'ulaw', speech, ['-ar', '8000', '-c:a', 'pcm_mulaw']),
      copy: true,
    },
    {
      name: 'a copy with crosstalk 20 dB down',
      left: speech,
      right: mix(speech, talker, 0.1),
      copy: true,
    },
  ];
}
