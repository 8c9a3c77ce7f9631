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

/**
 * The most channels ffmpeg's decoders open: a header claiming more is refused by the decoder
 * itself (its log says "Too many channels: N"), so no host can take more, whatever its limit.
 */
export const DECODER_MAX_CHANNELS = 512;

/** `payload_too_large` for media with more channels than the host takes, or than any decoder. */
export function tooManyChannels(
  fileName: string,
  channels: number,
  limits: MediaLimits,
): ServiceError {
  const most = Math.min(limits.maxChannels ?? DECODER_MAX_CHANNELS, DECODER_MAX_CHANNELS);
  return new ServiceError(
    'payload_too_large',
    `"${fileName}" has ${channels} audio channels; this service accepts at most ${most}.`,
  );
}

/** The channel count a decoder refused to open, read from ffmpeg's log; null when none was. */
export function refusedChannelCount(log: readonly string[]): number | null {
  for (const line of log) {
    const match = /Too many channels: (\d+)/.exec(line);
    if (match) return Number(match[1]);
  }
  return null;
}

/** Refuses media whose probe says it would cost more than `limits` allow. */
export function checkMediaLimits(probe: MediaProbe, limits: MediaLimits, fileName: string): void {
  if (limits.maxChannels !== undefined && probe.channels > limits.maxChannels) {
    throw tooManyChannels(fileName, probe.channels, limits);
  }
  if (
    limits.maxSeconds !== undefined &&
    probe.duration !== null &&
    probe.duration > limits.maxSeconds
  ) {
    throw tooLong(fileName, probe.duration, limits.maxSeconds);
  }
}
