/**
 * The recognition benchmark's recording: English sentences spoken by espeak-ng, separated by
 * pauses of 1 to 4 s (as in an interview or a lecture), about `seconds` long. Written once
 * as WAV (16 kHz mono s16) and as raw float32 for the library's pipeline, and reused.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { HELD_OUT, concat, pcm16k, sentence, silence, speak } from '../testing/speech';
import { CACHE } from './bench-media';

export interface BenchAudio {
  wav: string;
  pcm: string;
  seconds: number;
  speechSeconds: number;
  /** Sentences spoken (each a speech region of its own). */
  utterances: number;
}

export function benchAudio(seconds = 120): BenchAudio {
  const dir = join(CACHE, 'asr');
  mkdirSync(dir, { recursive: true });
  const wav = join(dir, `speech-pauses-${seconds}s.wav`);
  const pcm = join(dir, `speech-pauses-${seconds}s.f32`);
  const meta = join(dir, `speech-pauses-${seconds}s.json`);
  if (existsSync(wav) && existsSync(pcm) && existsSync(meta)) {
    const info = JSON.parse(readFileSync(meta, 'utf8')) as Omit<BenchAudio, 'wav' | 'pcm'>;
    if (info.utterances) return { wav, pcm, ...info };
  }
  const parts: Float32Array[] = [];
  let total = 0;
  let speech = 0;
  let utterances = 0;
  for (let i = 0; total < seconds; i++) {
    const raw = speak(
      'en',
      sentence('en', 5000 + i, 8 + (i % 7)),
      { variant: HELD_OUT.variants[i % HELD_OUT.variants.length]!, speed: 160, pitch: 50 },
      join(dir, 'utterance.wav'),
    );
    const utterance = pcm16k(raw);
    const pause = silence(1 + ((i * 7) % 4));
    parts.push(utterance, pause);
    speech += utterance.length / 16000;
    utterances++;
    total += (utterance.length + pause.length) / 16000;
  }
  const audio = concat(...parts);
  writeFileSync(pcm, Buffer.from(audio.buffer, audio.byteOffset, audio.byteLength));
  execFileSync('ffmpeg', [
    '-v',
    'error',
    '-y',
    '-f',
    'f32le',
    '-ar',
    '16000',
    '-ac',
    '1',
    '-i',
    pcm,
    '-c:a',
    'pcm_s16le',
    wav,
  ]);
  const info = { seconds: audio.length / 16000, speechSeconds: speech, utterances };
  writeFileSync(meta, JSON.stringify(info));
  return { wav, pcm, ...info };
}

/**
 * Text tokens per second of the engine's windows for `tokensPerSecond` per second of speech:
 * the engine decodes speech streams, in which each sentence has 0.2 s of padding on either side
 * and the pauses between them are shortened to half a second.
 */
export function tokensPerStreamSecond(audio: BenchAudio, tokensPerSecond: number): number {
  return (tokensPerSecond * audio.speechSeconds) / (audio.speechSeconds + 0.9 * audio.utterances);
}
