import { ServiceError } from '../contract/errors';
import type { MediaProbe } from './probe';

/**
 * What a host lets one request cost. Bytes say little: ten hours of 8-channel silence compress
 * to 164 KB of FLAC and decode to gigabytes. Decoded audio grows with duration x channels, so
 * those are what is bounded, from the probe, before anything is decoded.
 */
export interface MediaLimits {
  /** Longest media accepted, in seconds (none when absent). */
  maxSeconds?: number;
  /** Most audio channels accepted (none when absent). */
  maxChannels?: number;
}

function minutes(seconds: number): string {
  const m = seconds / 60;
  return Number.isInteger(m) ? `${m} min` : `${m.toFixed(1)} min`;
}

/** `payload_too_large` for media longer than the host takes (found before or while decoding). */
export function tooLong(
  fileName: string,
  seconds: number | null,
  maxSeconds: number,
): ServiceError {
  const length = seconds === null ? 'more than that' : minutes(seconds);
  return new ServiceError(
    'payload_too_large',
    `"${fileName}" is too long for this service: it accepts media of up to ${minutes(maxSeconds)}, and this file holds ${length}.`,
  );
}

/** Refuses media whose probe says it would cost more than `limits` allow. */
export function checkMediaLimits(probe: MediaProbe, limits: MediaLimits, fileName: string): void {
  if (limits.maxChannels !== undefined && probe.channels > limits.maxChannels) {
    throw new ServiceError(
      'payload_too_large',
      `"${fileName}" has ${probe.channels} audio channels; this service accepts at most ${limits.maxChannels}.`,
    );
  }
  if (
    limits.maxSeconds !== undefined &&
    probe.duration !== null &&
    probe.duration > limits.maxSeconds
  ) {
    throw tooLong(fileName, probe.duration, limits.maxSeconds);
  }
}
