import { describe, expect, it } from 'vitest';
import type { MediaProbe } from '../../../core/audio/probe';
import { DEFAULT_MEDIA_SETTINGS } from '../../stage-settings';
import { anchorQueries, readAnchors, seekOptions } from './seek-anchors';

const settings = DEFAULT_MEDIA_SETTINGS;

const probe = (formatName: string, duration: number | null, startTime = 0): MediaProbe => ({
  streamIndex: 0,
  codec: formatName,
  channels: 1,
  sampleRate: 44100,
  sampleWidth: 16,
  duration,
  hasVideo: false,
  formatName,
  startTime,
});

describe('where packets are looked for', () => {
  it('asks, for mp3 and ADTS AAC, a second before each window after the first', () => {
    // 100-s windows start 0.6 s early; the stream's clock is 0.025 s ahead.
    expect(anchorQueries(probe('mp3', 450, 0.025), 100, settings)).toEqual([
      100 - 0.6 + 0.025 - 1,
      200 - 0.6 + 0.025 - 1,
      300 - 0.6 + 0.025 - 1,
    ]);
    expect(anchorQueries(probe('aac', 250), 100, settings)).toEqual([98.4]);
  });

  it('leaves the window that reaches the end to an ordinary seek', () => {
    // The window from 299.4 s would end at 400 s, within 2 s of the stated 401 s.
    expect(anchorQueries(probe('mp3', 401), 100, settings)).toEqual([98.4, 198.4]);
  });

  it('asks nothing of indexed formats or of a stream of unknown length', () => {
    for (const format of ['wav', 'flac', 'mov,mp4,m4a,3gp,3g2,mj2', 'ogg', 'matroska,webm'])
      expect(anchorQueries(probe(format, 3600), 100, settings)).toEqual([]);
    expect(anchorQueries(probe('mp3', null), 100, settings)).toEqual([]);
    expect(anchorQueries({ ...probe('mp3', 3600), streamIndex: 1 }, 100, settings)).toEqual([]);
  });
});

describe("ffprobe's packets", () => {
  it('are read in time order, without packets that lack a time or a byte', () => {
    const json = JSON.stringify({
      packets: [
        { pts_time: '198.974694', pos: '3183671' },
        { pts_time: 'N/A', pos: '10' },
        { pts_time: '98.977959', pos: '1583673' },
        { pts_time: '5.0' },
      ],
    });
    expect(readAnchors(json)).toEqual([
      { time: 98.977959, byte: 1583673 },
      { time: 198.974694, byte: 3183671 },
    ]);
  });

  it('are none when the listing is not JSON or holds no packets', () => {
    expect(readAnchors('')).toEqual([]);
    expect(readAnchors('{"packets": {}}')).toEqual([]);
    expect(readAnchors('{}')).toEqual([]);
  });
});

describe('how a window is sought', () => {
  const mp3 = probe('mp3', 450, 0.025);
  const anchors = [
    { time: 98.4, byte: 1_000 },
    { time: 198.45, byte: 2_000 },
    { time: 198.9, byte: 2_100 },
  ];

  it('reads from the latest packet at least half a second before the start', () => {
    // 199.4 s of audio is 199.425 s on the stream's clock: 198.9 is 0.525 s before it.
    expect(seekOptions(anchors, mp3, 199.4, 100.6, settings)).toEqual([
      '-skip_initial_bytes',
      '2100',
      '-f',
      'mp3',
      '-ss',
      (199.425 - 198.9).toFixed(6),
    ]);
    // 199.3 s is 199.325 on the stream's clock: 198.9 is too close, 198.45 is used.
    expect(seekOptions(anchors, mp3, 199.3, 100.6, settings).slice(0, 2)).toEqual([
      '-skip_initial_bytes',
      '2000',
    ]);
  });

  it('seeks from the start when no packet is early enough or the window reaches the end', () => {
    expect(seekOptions(anchors, mp3, 98.5, 100.6, settings)).toEqual(['-ss', '98.500000']);
    expect(seekOptions([], mp3, 199.4, 100.6, settings)).toEqual(['-ss', '199.400000']);
    expect(seekOptions(anchors, mp3, 349.4, 100.6, settings)).toEqual(['-ss', '349.400000']);
  });
});
