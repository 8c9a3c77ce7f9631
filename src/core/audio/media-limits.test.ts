import { describe, expect, it } from 'vitest';
import { ServiceError } from '../contract/errors';
import type { Seconds } from '../units';
import { checkMediaLimits, tooLong } from './media-limits';
import type { MediaProbe } from './probe';

const probe = (channels: number, duration: number | null): MediaProbe => ({
  streamIndex: 0,
  codec: 'flac',
  channels,
  sampleRate: 8000,
  sampleWidth: 16,
  duration: duration as Seconds | null,
  hasVideo: false,
  formatName: 'flac',
  startTime: 0,
});

function refusal(run: () => void): ServiceError {
  try {
    run();
  } catch (thrown) {
    if (thrown instanceof ServiceError) return thrown;
  }
  throw new Error('expected a ServiceError');
}

describe('checkMediaLimits', () => {
  it('lets media within the limits through, and media of unknown length', () => {
    expect(() =>
      checkMediaLimits(probe(2, 3600), { maxSeconds: 3600, maxChannels: 2 }, 'a.flac'),
    ).not.toThrow();
    expect(() => checkMediaLimits(probe(2, null), { maxSeconds: 60 }, 'a.flac')).not.toThrow();
    expect(() => checkMediaLimits(probe(64, 1e6), {}, 'a.flac')).not.toThrow();
  });

  it('refuses ten hours of eight channels with 413, naming both limits it passes', () => {
    const channels = refusal(() =>
      checkMediaLimits(probe(8, 36000), { maxSeconds: 7200, maxChannels: 2 }, 's8.flac'),
    );
    expect(channels.code).toBe('payload_too_large');
    expect(channels.status).toBe(413);
    expect(channels.message).toBe(
      '"s8.flac" has 8 audio channels; this service accepts at most 2.',
    );
    const long = refusal(() =>
      checkMediaLimits(probe(1, 36000), { maxSeconds: 7200, maxChannels: 2 }, 's1.flac'),
    );
    expect(long.message).toBe(
      '"s1.flac" is too long for this service: it accepts media of up to 120 min, and this file holds 600 min.',
    );
  });

  it('says "more than that" when the length is found while decoding', () => {
    expect(tooLong('x.ogg', null, 90).message).toBe(
      '"x.ogg" is too long for this service: it accepts media of up to 1.5 min, and this file holds more than that.',
    );
  });
});
