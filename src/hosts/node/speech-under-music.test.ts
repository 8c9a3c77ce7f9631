import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptionResponse } from '../../core/contract/response';
import { comparedWords, phraseLoopCut } from '../../core/decoding/repetition';
import { alternating, musicAlone, noiseAlone } from '../../../tools/testing/music-set';
import { scratchDir } from '../../../tools/testing/speech';
import { writeWav } from '../../../tools/testing/wav';
import { sharedMedia } from '../../../tools/testing/ffmpeg-fixtures';
import { main } from './cli';

/**
 * Speech and music through the CLI's whole pipeline with the test recogniser: music and noise
 * alone give no text, a long programme of speech and music in turn keeps every sentence and
 * writes no loop, and a narrated video with a music bed (where Silero hears no voice) is billed
 * on both channels (that its loud stretches reach recognition: ffmpeg-media.test.ts). Music beds, noise and speech are generated from seeds held out of
 * the speech-under-music evaluation's sets (tools/eval/music.ts).
 */
const MODELS = join(import.meta.dirname, '..', '..', '..', '.models');
const MODEL = 'murmur-test/whisper-synth';
const RATE = 16000;
let dir = '';

async function transcribe(file: string, ...fields: string[]): Promise<TranscriptionResponse> {
  let out = '';
  let err = '';
  const code = await main(['transcribe', file, '--models', MODELS, '--model', MODEL, ...fields], {
    stdout: (t) => (out += t),
    stderr: (t) => (err += t),
  });
  if (code !== 0) throw new Error(`murmur exited ${code}: ${err}`);
  return JSON.parse(out) as TranscriptionResponse;
}

beforeAll(() => {
  dir = scratchDir();
});

describe('speech under music', () => {
  it('writes no text over music alone, and bills the channel as sound', async () => {
    for (const seed of [51, 52, 53]) {
      const path = writeWav(join(dir, `music-${seed}.wav`), [musicAlone(30, seed)]);
      const response = await transcribe(path);
      expect(response.prediction_raw.transcription).toEqual([]);
      expect(response.prediction_raw.metadata.billing?.[0]?.reason).toBe('billed');
    }
  }, 120_000);

  it('writes no text over noise alone', async () => {
    const path = writeWav(join(dir, 'noise.wav'), [noiseAlone(30, 33)]);
    const response = await transcribe(path);
    expect(response.prediction_raw.transcription).toEqual([]);
  });

  it('bills both channels of a narrated video with a music bed', async () => {
    const response = await transcribe(
      sharedMedia('video/echo-hereweare.first12s.derived.mp4'),
      '--endpoint',
      'video',
    );
    const { metadata } = response.prediction_raw;
    expect(metadata.nb_silent_channels).toBe(0);
    expect(metadata.billing?.map((b) => b.reason)).toEqual(['billed', 'billed']);
  });

  it('keeps every sentence of a 20-minute programme of speech and music in turn, with no loop', async () => {
    const programme = alternating({ blocks: 20, sentences: 6, musicSeconds: 36, seed: 41 });
    expect(programme.speech.length / RATE).toBeGreaterThan(20 * 60);
    const path = writeWav(join(dir, 'alternating.wav'), [programme.speech]);
    const { transcription } = (await transcribe(path)).prediction_raw;
    const words = transcription.flatMap((s) => s.words);
    // Every sentence has at least a third of its words written within its time.
    for (const sentence of programme.sentences) {
      const from = sentence.from / RATE - 0.3;
      const to = sentence.to / RATE + 0.3;
      const heard = new Set(
        words
          .filter((w) => (w.time_begin + w.time_end) / 2 >= from)
          .filter((w) => (w.time_begin + w.time_end) / 2 <= to)
          .flatMap((w) => comparedWords(w.word)),
      );
      const said = comparedWords(sentence.text);
      const found = said.filter((w) => heard.has(w)).length;
      expect(found, `"${sentence.text}" at ${from.toFixed(1)} s`).toBeGreaterThanOrEqual(
        said.length / 3,
      );
    }
    // No phrase said three times in a row anywhere, and no line written three times in a row.
    const all = transcription.flatMap((s) => comparedWords(s.transcription));
    expect(phraseLoopCut(all)).toHaveLength(all.length);
    const lines = transcription.map((s) => comparedWords(s.transcription).join(' '));
    for (let i = 2; i < lines.length; i++) {
      expect(lines[i] === lines[i - 1] && lines[i] === lines[i - 2]).toBe(false);
    }
    // Not much more text than was said.
    const spoken = programme.sentences.flatMap((s) => comparedWords(s.text)).length;
    expect(all.length).toBeLessThan(1.2 * spoken);
  }, 600_000);
});
