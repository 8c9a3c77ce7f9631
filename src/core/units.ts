/**
 * Times cross many stages as plain numbers; these names say which unit a number is in.
 * Conversion between them happens only here.
 */
export type Seconds = number;
export type SampleIndex = number;

export function samplesToSeconds(samples: SampleIndex, sampleRate: number): Seconds {
  return samples / sampleRate;
}

export function secondsToSamples(seconds: Seconds, sampleRate: number): SampleIndex {
  return Math.round(seconds * sampleRate);
}

/** Times in responses are given to the millisecond. */
export function roundToMillisecond(seconds: Seconds): Seconds {
  return Math.round(seconds * 1000) / 1000;
}
