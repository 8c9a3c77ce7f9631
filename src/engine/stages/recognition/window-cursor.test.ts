import { describe, expect, it } from 'vitest';
import type { StoredPcm } from '../../../core/audio/pcm';
import { streamSamples } from '../../../core/decoding/speech-streams';
import { SAMPLE_RATE, toSamples } from '../../../core/units';
import { DEFAULT_RECOGNITION_SETTINGS } from '../../stage-settings';
import { ChannelFeed, completeChannel } from '../../streams/growing-channel';
import type { GrowingChannel } from '../../streams/growing-channel';
import { WindowCursor } from './window-cursor';

/** A channel kept in a file, made up on reading, that notes the length of every read. */
function storedChannel(seconds: number): { pcm: StoredPcm; reads: number[] } {
  const reads: number[] = [];
  const pcm: StoredPcm = {
    length: toSamples(seconds),
    read(from, to) {
      reads.push(to - from);
      return Int16Array.from(
        { length: to - from },
        (_, i) => (((from + i) * 7919) % 65536) - 32768,
      );
    },
  };
  return { pcm, reads };
}

describe('the window cursor', () => {
  it('reads a long stream one window at a time, the same samples as the whole stream holds', () => {
    const seconds = 20 * 60;
    const { pcm, reads } = storedChannel(seconds);
    // Speech throughout, with short pauses: one stream as long as the recording.
    const speech = Array.from({ length: seconds / 10 }, (_, k) => ({
      start: k * 10 + 0.5,
      end: k * 10 + 9.7,
    }));
    const channel = completeChannel({ index: 0, samples: pcm, speech });
    const windowSamples = toSamples(30);
    const cursor = new WindowCursor(
      channel,
      windowSamples,
      seconds,
      false,
      DEFAULT_RECOGNITION_SETTINGS,
    );
    const [stream, ...others] = cursor.streams();
    expect(others).toHaveLength(0);
    const whole = streamSamples(stream!, pcm, SAMPLE_RATE);
    expect(whole.length).toBeGreaterThan(toSamples(seconds - 120));
    reads.length = 0;

    let windows = 0;
    for (let next = cursor.next(); next !== 'end'; next = cursor.next()) {
      expect(next).not.toBe('wait');
      if (next === 'wait') break;
      expect(next.audio.length).toBeLessThanOrEqual(windowSamples);
      const expected = whole.subarray(next.seek, next.seek + windowSamples);
      expect(next.audio.length).toBe(expected.length);
      expect(next.audio.findIndex((s, i) => s !== expected[i])).toBe(-1);
      windows++;
      cursor.advance(27.5);
    }
    expect(windows).toBe(Math.ceil(whole.length / toSamples(27.5)));
    // No read larger than a window: the stream is never copied whole.
    expect(Math.max(...reads)).toBeLessThanOrEqual(windowSamples);
    expect(reads.reduce((a, b) => a + b, 0)).toBeLessThan(whole.length * 1.2);
  });

  it('cuts the first window short at a pause once the stream is known that far, as on the whole channel', () => {
    const seconds = 60;
    const { pcm } = storedChannel(seconds);
    // Sentences of 2.5-3 s, then speech running on; the stream's pauses begin at 3.4 and 6.8 s.
    const speech = [
      { start: 0.5, end: 3.5 },
      { start: 5, end: 7.5 },
      { start: 9.5, end: 50 },
    ];
    const settings = { ...DEFAULT_RECOGNITION_SETTINGS, firstWindowSeconds: 8 };
    const windowSamples = toSamples(30);
    const first = (channel: GrowingChannel, earlyStart = true) =>
      new WindowCursor(channel, windowSamples, seconds, false, settings, earlyStart).next();
    const whole = first(completeChannel({ index: 0, samples: pcm, speech }));
    if (whole === 'wait' || whole === 'end') throw new Error(`no first window: ${whole}`);
    expect(whole.cutShort).toBe(true);
    expect(whole.audio.length).toBe(toSamples(7.05));

    // Growing: nothing while less than 8 s of the stream is known, then the same window.
    const feed = new ChannelFeed(0, pcm, seconds);
    feed.update(pcm, speech.slice(0, 2));
    expect(first(feed)).toBe('wait');
    feed.update(pcm, [...speech.slice(0, 2), { start: 9.5, end: 12 }]);
    const grown = first(feed);
    if (grown === 'wait' || grown === 'end') throw new Error(`no first window: ${grown}`);
    expect(grown.cutShort).toBe(true);
    expect(grown.seek).toBe(0);
    expect(grown.audio).toEqual(whole.audio);

    // Not asked, or no pause within the span: a whole model window, as every other.
    expect(first(completeChannel({ index: 0, samples: pcm, speech }), false)).toMatchObject({
      audio: { length: windowSamples },
    });
    const runOn = first(completeChannel({ index: 0, samples: pcm, speech: [speech[2]!] }));
    expect(runOn).toMatchObject({ audio: { length: windowSamples } });
    expect(runOn).not.toHaveProperty('cutShort');
  });
});
