import type { Seconds } from '../units';

/** Below this peak level a channel is digital silence or hum: it is not worth running VAD on. */
export const SILENT_PEAK_DB = -60;

/** Less speech than this in a whole channel (a cough, a click) does not make it non-silent. */
export const MIN_CHANNEL_SPEECH_SECONDS: Seconds = 0.25;

/**
 * A channel is silent when it is too quiet to hold speech, or when VAD found (almost) no
 * speech and nothing in it rises above its own background for as long (`loudSeconds`, from
 * `loud-regions.ts`): a detector's low scores alone never make loud content silent (Silero
 * scores speech under a music bed near zero).
 */
export function isSilentChannel(
  peakDb: number,
  speechSeconds: Seconds | null,
  loudSeconds: Seconds = 0,
): boolean {
  if (peakDb < SILENT_PEAK_DB) return true;
  if (speechSeconds === null) return false;
  return speechSeconds < MIN_CHANNEL_SPEECH_SECONDS && loudSeconds < MIN_CHANNEL_SPEECH_SECONDS;
}
