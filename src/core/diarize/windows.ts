/**
 * Where the segmentation model looks: windows of its own length slid over a channel, started
 * only where they would see speech (the speech stage already found it), so that silence costs
 * nothing. Window starts are whole multiples of the model's frame step, so every window's
 * frames fall on one grid for the whole channel.
 */
import type { TimeSpan } from '../audio/speech-regions';

export interface WindowPlan {
  /** First sample of each window (a window past the end is padded with silence). */
  starts: number[];
  windowSamples: number;
  /** Samples between consecutive frames of the model's output. */
  frameStep: number;
  /** Frames between consecutive window starts. */
  stepFrames: number;
}

export function planWindows(options: {
  samples: number;
  sampleRate: number;
  speech: readonly TimeSpan[];
  windowSamples: number;
  frameStep: number;
  /** Seconds between window starts. */
  stepSeconds: number;
}): WindowPlan {
  const { samples, sampleRate, windowSamples, frameStep } = options;
  const stepFrames = Math.max(1, Math.round((options.stepSeconds * sampleRate) / frameStep));
  const step = stepFrames * frameStep;
  const spans = options.speech
    .map((s) => [Math.floor(s.start * sampleRate), Math.ceil(s.end * sampleRate)] as const)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  const starts: number[] = [];
  let first = 0;
  for (let start = 0; start < samples; start += step) {
    const end = start + windowSamples;
    while (first < spans.length && spans[first]![1] <= start) first++;
    if (first < spans.length && spans[first]![0] < end) starts.push(start);
    if (end >= samples) break;
  }
  return { starts, windowSamples, frameStep, stepFrames };
}
