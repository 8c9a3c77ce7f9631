import { describe, expect, it } from 'vitest';
import { runWhisperCpp, WINDOW_SAMPLES, type WhisperCppContext } from './whispercpp';

/**
 * A stand-in for whisper.cpp's binding with a clock of its own: each call makes two passes
 * over its window (5 ms, then 7 ms), reporting progress as each starts and once at the end,
 * and the new segments of each pass before the next pass's progress, as whisper.cpp does.
 */
function twoPassContext() {
  let clock = 0;
  const handed: number[] = [];
  const context: WhisperCppContext = {
    transcribeData(audio, options) {
      handed.push(audio.byteLength / 4);
      options.onProgress(0);
      clock += 5;
      options.onNewSegments({ result: ' first' });
      options.onProgress(40);
      clock += 7;
      options.onNewSegments({ result: ' second' });
      options.onProgress(100);
      return { promise: Promise.resolve({}) };
    },
  };
  return { context, handed, now: () => clock };
}

describe("whisper.cpp's runs in the recognition benchmark", () => {
  it('hands over each 30-s window alone and times its first pass as the equal-work figure', async () => {
    const { context, handed, now } = twoPassContext();
    // Two whole windows, 10 s more, then 50 ms that whisper.cpp would not decode.
    const samples = new Float32Array(2 * WINDOW_SAMPLES + 10 * 16000 + 800);
    const run = await runWhisperCpp(context, samples, 2, now);
    expect(handed).toEqual([WINDOW_SAMPLES, WINDOW_SAMPLES, 10 * 16000 + 800]);
    expect(run.windows).toBe(3);
    expect(run.passes).toBe(6);
    expect(run.seconds).toBeCloseTo(0.015, 9);
    expect(run.allPassesSeconds).toBeCloseTo(0.036, 9);
    expect(run.firstSegmentSeconds).toBeCloseTo(0.005, 9);
    expect(run.text).toBe(' first second first second first second');
  });

  it("times the first pass by the progress alone when its segments come after the second pass's progress", async () => {
    let clock = 0;
    const context: WhisperCppContext = {
      transcribeData(_audio, options) {
        options.onProgress(0);
        clock += 5;
        options.onProgress(40);
        options.onNewSegments({ result: ' first' });
        clock += 7;
        options.onProgress(100);
        options.onNewSegments({ result: ' second' });
        return { promise: Promise.resolve({}) };
      },
    };
    const run = await runWhisperCpp(context, new Float32Array(WINDOW_SAMPLES), 2, () => clock);
    expect(run.text).toBe(' first second');
    expect(run.seconds).toBeCloseTo(0.005, 9);
    expect(run.allPassesSeconds).toBeCloseTo(0.012, 9);
  });

  it('asks for one temperature, no earlier text as a prompt, and the threads given', async () => {
    const seen: unknown[] = [];
    const context: WhisperCppContext = {
      transcribeData(_audio, { onProgress, onNewSegments, ...options }) {
        seen.push(options);
        onProgress(0);
        onNewSegments({ result: ' only' });
        onProgress(100);
        return { promise: Promise.resolve({}) };
      },
    };
    const run = await runWhisperCpp(context, new Float32Array(WINDOW_SAMPLES), 1);
    expect(seen).toEqual([{ language: 'en', maxThreads: 1, temperatureInc: 0, maxContext: 0 }]);
    expect(run.passes).toBe(1);
    expect(run.text).toBe(' only');
  });
});
