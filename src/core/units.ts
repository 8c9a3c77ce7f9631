/**
 * Times cross many stages as plain numbers; these names say which unit a number is in, and
 * conversions between samples and seconds happen only here, at the engine's one sample rate.
 */
export type Seconds = number;
export type SampleIndex = number;

/** Every channel is decoded to 16 kHz mono float32, the rate of Whisper and Silero VAD. */
export const SAMPLE_RATE = 16_000;

export function toSeconds(samples: SampleIndex): Seconds {
  return samples / SAMPLE_RATE;
}

/** The nearest sample to a time. */
export function toSamples(seconds: Seconds): SampleIndex {
  return Math.round(seconds * SAMPLE_RATE);
}

/** Times in responses are given to the millisecond. */
export function roundToMillisecond(seconds: Seconds): Seconds {
  return Math.round(seconds * 1000) / 1000;
}
