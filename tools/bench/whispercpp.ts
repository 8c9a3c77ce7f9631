/**
 * whisper.cpp as a contender of the recognition benchmark, natively in Node
 * (`@fugood/node-whisper-linux-x64`) and as WASM in Chromium (`@fugood/node-whisper-wasm`):
 * the same binding, the same whisper.cpp, the same options. It runs the benchmark model
 * converted by tools/models/bench-to-ggml.py, whose file caps each window at the pipeline's
 * tokens per 30-s chunk.
 *
 * Equal work: whisper.cpp moves its 30-s window on to the last timestamp decoded, and
 * generated weights put their timestamps early, so on its own it would decode each stretch of
 * the recording several times. The binding cannot turn timestamps off, so each 30-s window is
 * handed over alone, and its time is taken up to the start of whisper.cpp's second pass over it
 * (its progress report): one encoder pass and the capped tokens per 30 s of audio. The time of
 * all its passes is kept beside it.
 */

/** The part of the binding's context that the benchmark uses (native and WASM alike). */
export interface WhisperCppContext {
  transcribeData(
    audio: ArrayBuffer,
    options: {
      language: string;
      maxThreads: number;
      temperatureInc: number;
      maxContext: number;
      onProgress: (progress: number) => void;
      onNewSegments: (update: { result: string }) => void;
    },
  ): { promise: Promise<unknown> };
}

export const WINDOW_SAMPLES = 30 * 16000;

/** The converted model's file, relative to the model's folder. */
export const ggmlFile = (tokensPerWindow: number) => `ggml/tokens-${tokensPerWindow}.bin`;

export interface WhisperCppRun {
  /** One pass a 30-s window, summed: the figure at equal work. */
  seconds: number;
  /** Every pass whisper.cpp made, summed. */
  allPassesSeconds: number;
  windows: number;
  passes: number;
  firstSegmentSeconds: number;
  /** The text whisper.cpp wrote, every pass of every window (to compare its builds). */
  text: string;
}

export async function runWhisperCpp(
  context: WhisperCppContext,
  samples: Float32Array,
  threads: number,
  now: () => number = () => performance.now(),
): Promise<WhisperCppRun> {
  let seconds = 0;
  let allPassesSeconds = 0;
  let passes = 0;
  let windows = 0;
  let firstSegmentSeconds = 0;
  let text = '';
  for (let start = 0; start < samples.length; start += WINDOW_SAMPLES) {
    const window = samples.slice(start, start + WINDOW_SAMPLES);
    // whisper.cpp stops at less than 100 ms left; so does this.
    if (window.length < 1600) break;
    windows++;
    const began = now();
    // Its progress is reported as each pass starts, and once more when it stops.
    const reports: number[] = [];
    const { promise } = context.transcribeData(window.buffer, {
      language: 'en',
      maxThreads: threads,
      // One temperature: no fallback passes (generated weights would fail every one).
      temperatureInc: 0,
      // No text of earlier windows as a prompt: every window decodes the same tokens.
      maxContext: 0,
      onProgress: () => void reports.push(now()),
      // Every pass's text: the native binding queues segments and progress apart, so which
      // pass a segment came from cannot be told by when it arrives.
      onNewSegments: (update) => void (text += update.result),
    });
    await promise;
    const ended = now();
    const firstPassEnd = reports[1] ?? ended;
    seconds += (firstPassEnd - began) / 1000;
    allPassesSeconds += (ended - began) / 1000;
    passes += Math.max(1, reports.length - 1);
    firstSegmentSeconds ||= (firstPassEnd - began) / 1000;
  }
  return { seconds, allPassesSeconds, windows, passes, firstSegmentSeconds, text };
}
