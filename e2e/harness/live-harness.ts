import type { CaptionLine, CaptionUpdate } from '../../src/core/live/captions';
import { TranscriptionClient } from '../../src/worker/client';

export interface LiveRunOptions {
  modelHost: string;
  whisperModel: string;
  /** Seconds of audio per push, as a recorder sends them. */
  chunkSeconds: number;
  /** How much faster than real time the audio is fed (1: as it is recorded; 0: at once). */
  speed: number;
}

/** One caption update as the page received it. */
export interface ReceivedUpdate {
  /** Seconds of audio fed when it arrived. */
  fed: number;
  /** Seconds since the first push. */
  wall: number;
  settled: CaptionLine[];
  provisional: (CaptionLine | null)[];
  behindSeconds: number;
}

export interface LiveRunResult {
  updates: ReceivedUpdate[];
  /** Seconds from the first push until `end()` resolved. */
  wallSeconds: number;
  audioSeconds: number;
  error: string | null;
}

const SAMPLE_RATE = 16_000;

/**
 * Feeds the chosen raw 16 kHz mono float32 file to a live transcription in the app's own
 * transcription worker, chunk by chunk at the given pace, and records what came back when.
 */
async function run(options: LiveRunOptions): Promise<LiveRunResult> {
  const input = document.querySelector<HTMLInputElement>('[data-testid="harness.file"]');
  const file = input?.files?.[0];
  if (!file) throw new Error('Choose the .f32 file.');
  // Read a chunk at a time, as a recorder has it: the page never holds the whole recording.
  const samples = file.size / 4;
  const client = new TranscriptionClient(
    (name) =>
      new Worker(new URL('../../src/hosts/browser/transcription.worker.ts', import.meta.url), {
        type: 'module',
        name,
      }),
  );
  client.configure({
    modelHost: options.modelHost,
    whisperModel: options.whisperModel,
    useGpu: false,
  });
  const updates: ReceivedUpdate[] = [];
  let fed = 0;
  let error: string | null = null;
  let started = 0;
  const live = client.listen(
    { channels: 1, languageBehaviour: 'manual', language: 'en', hint: '' },
    (update: CaptionUpdate) =>
      updates.push({ fed, wall: (performance.now() - started) / 1000, ...update }),
    (e) => {
      error = e.message;
    },
  );
  const chunk = Math.round(options.chunkSeconds * SAMPLE_RATE);
  started = performance.now();
  for (let at = 0; at < samples && error === null; at += chunk) {
    const end = Math.min(samples, at + chunk);
    const piece = new Float32Array(await file.slice(at * 4, end * 4).arrayBuffer());
    if (options.speed > 0) {
      // A recorder has a chunk once its last sample is recorded. Paced by the clock, not by
      // the timer: late timers do not slow the feed down.
      const due = started + ((end / SAMPLE_RATE) * 1000) / options.speed;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    live.push([piece]);
    fed = end / SAMPLE_RATE;
  }
  await live.end().catch((e: Error) => {
    error = e.message;
  });
  return {
    updates,
    wallSeconds: (performance.now() - started) / 1000,
    audioSeconds: samples / SAMPLE_RATE,
    error,
  };
}

declare global {
  interface Window {
    liveHarness: { run: typeof run };
  }
}

window.liveHarness = { run };
