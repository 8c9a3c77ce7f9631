import type { Seconds } from '../units';

/** Below this peak level a channel is digital silence or hum: it is not worth running VAD on. */
export const SILENT_PEAK_DB = -60;

/** Less speech than this in a whole channel (a cough, a click) does not make it non-silent. */
export const MIN_CHANNEL_SPEECH_SECONDS: Seconds = 0.25;

/** A channel is silent when it is too quiet to hold speech or when VAD found (almost) none. */
export function isSilentChannel(peakDb: number, speechSeconds: Seconds | null): boolean {
  if (peakDb < SILENT_PEAK_DB) return true;
  return speechSeconds !== null && speechSeconds < MIN_CHANNEL_SPEECH_SECONDS;
}
