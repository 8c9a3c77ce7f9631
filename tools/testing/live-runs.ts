/**
 * Live transcription on the Node host's engine with the test models, fed generated speech in
 * chunks: what the live tests and the live benchmark share.
 */
import { join } from 'node:path';
import { concat, pcm16k, scratchDir, sentence, silence, spokenFile } from './speech';
import { writeWav } from './wav';
import type { CaptionLine, CaptionUpdate } from '../../src/core/live/captions';
import { runPipeline } from '../../src/engine/pipeline';
import {
  LiveTranscriber,
  type LiveTranscriptionOptions,
} from '../../src/engine/live/live-transcriber';
import type { EnginePorts } from '../../src/engine/ports';
import { mediaRequest, testEnginePorts } from './ffmpeg-fixtures';
import { diskFile } from '../../src/hosts/node';

/** Phrases of generated English speech, each with `pause` seconds of silence on both sides. */
export function spokenPhrases(
  seed: number,
  count: number,
  words: number,
  pause: number,
): { samples: Float32Array; texts: string[] } {
  const texts = Array.from({ length: count }, (_, k) => sentence('en', seed + k, words));
  const file = spokenFile(
    scratchDir(),
    `phrases-${seed}`,
    texts.map((text) => ({ language: 'en' as const, text })),
    pause,
  );
  return { samples: pcm16k(file.path), texts };
}

/** The same channels transcribed as a file is (the CLI's path), as one text per channel. */
export async function fileTranscripts(
  channels: readonly Float32Array[],
  ports: EnginePorts = testEnginePorts(),
): Promise<string[]> {
  const path = writeWav(join(scratchDir(), 'live.wav'), channels);
  const media = (await diskFile(path))!;
  const response = await runPipeline(
    mediaRequest({ kind: 'file', file: media }, { language_behaviour: 'manual', language: 'en' }),
    ports,
  );
  const segments = response.prediction_raw.transcription;
  return channels.map((_, index) =>
    segments
      .filter((s) => s.channel === `channel_${index}`)
      .map((s) => s.transcription)
      .join(' '),
  );
}

/** An update as it arrived, with the seconds of audio fed by then. */
export interface TimedUpdate {
  fed: number;
  update: CaptionUpdate;
}

export interface LiveRun {
  transcriber: LiveTranscriber;
  updates: TimedUpdate[];
  /** The settled lines, in the order they came. */
  settled(): CaptionLine[];
  /** The most audio the transcriber held at once, in samples over all channels. */
  maxRetained: number;
}

/** A live transcription on the test engine, its updates recorded. */
export function startLive(
  options: Partial<LiveTranscriptionOptions> = {},
  ports: EnginePorts = testEnginePorts(),
): LiveRun & { fed: number } {
  const run = {
    updates: [] as TimedUpdate[],
    fed: 0,
    maxRetained: 0,
    settled: () => run.updates.flatMap((u) => u.update.settled),
  } as LiveRun & { fed: number };
  run.transcriber = new LiveTranscriber(
    ports,
    { channels: 1, languageBehaviour: 'manual', language: 'en', hint: '', ...options },
    (update) => run.updates.push({ fed: run.fed, update }),
  );
  return run;
}

/**
 * Feeds channels in chunks of `chunkSeconds`, waiting after every `idleEvery` chunks until
 * the transcriber has heard everything so far (as fast as it goes, without a backlog of more
 * than `idleEvery` chunks). Does not end the transcription.
 */
export async function feed(
  run: LiveRun & { fed: number },
  channels: readonly Float32Array[],
  chunkSeconds = 0.25,
  idleEvery = 1,
): Promise<void> {
  const chunk = Math.round(chunkSeconds * 16_000);
  const length = Math.max(...channels.map((c) => c.length));
  let count = 0;
  for (let at = 0; at < length; at += chunk) {
    const pieces = channels.map((c) => {
      const piece = c.slice(at, at + chunk);
      return piece.length === Math.min(chunk, length - at)
        ? piece
        : concat(piece, silence((Math.min(chunk, length - at) - piece.length) / 16_000));
    });
    run.transcriber.push(pieces);
    run.fed = Math.min(length, at + chunk) / 16_000;
    run.maxRetained = Math.max(run.maxRetained, run.transcriber.retainedSamples());
    if (++count % idleEvery === 0) {
      await run.transcriber.idle();
      run.maxRetained = Math.max(run.maxRetained, run.transcriber.retainedSamples());
    }
  }
  await run.transcriber.idle();
}
