import { describe, expect, it } from 'vitest';
import type { MediaProbe } from '../../../core/audio/probe';
import { DEFAULT_MEDIA_SETTINGS } from '../../stage-settings';
import { anchorQueries, readAnchors, readGoesOn, readStreamEnd, seekOptions } from './seek-anchors';

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
      400 - 0.6 + 0.025 - 1,
    ]);
    expect(anchorQueries(probe('aac', 250), 100, settings)).toEqual([98.4, 198.4]);
  });

  it('leaves the windows that start in the listing of the end to it', () => {
    // The end is listed from 3 s before the stated 401 s: the window from 399.4 s starts in it.
    expect(anchorQueries(probe('mp3', 401), 100, settings)).toEqual([98.4, 198.4, 298.4]);
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

  it('end where the last one ends, less the padding it says to drop', () => {
    const json = JSON.stringify({
      packets: [
        { pts_time: '98.977959', duration_time: '0.026122', pos: '1583673', size: '209' },
        { pts_time: '37.276735', duration_time: '0.026122', pos: '298466', size: '209' },
        {
          pts_time: '37.302857',
          duration_time: '0.026122',
          pos: '298675',
          size: '209',
          side_data_list: [{ discard_padding: 173 }],
        },
        { pts_time: '37.250612', duration_time: '0.026122', pos: '298257', size: '209' },
      ],
      format: { size: '1583882' },
    });
    // Read from 35 s, the packet at 98.98 s is the last: it ends the stream, with no padding.
    expect(readStreamEnd(json, 35, 44100)).toBeCloseTo(98.977959 + 0.026122, 9);
    const end = JSON.stringify({
      packets: JSON.parse(json).packets.slice(1),
      // An ID3v1 tag after the last packet.
      format: { size: String(298675 + 209 + 128) },
    });
    expect(readStreamEnd(end, 35, 44100)).toBeCloseTo(37.302857 + 0.026122 - 173 / 44100, 9);
    expect(
      readStreamEnd(
        end.replace('"side_data_list":[{"discard_padding":173}]', '"side_data_list":[{}]'),
        35,
        44100,
      ),
    ).toBeCloseTo(37.328979, 9);
  });

  it('end where padding spread over the last two starts', () => {
    // 1300 samples of padding: 148 of the packet before the last, and all 1152 of the last.
    const json = JSON.stringify({
      packets: [
        {
          pts_time: '37.276735',
          duration_time: '0.026122',
          pos: '298466',
          size: '209',
          side_data_list: [{ discard_padding: 148 }],
        },
        {
          pts_time: '37.302857',
          duration_time: '0.026122',
          pos: '298675',
          size: '209',
          side_data_list: [{ discard_padding: 1152 }],
        },
      ],
      format: { size: '298884' },
    });
    expect(readStreamEnd(json, 35, 44100)).toBeCloseTo(37.276735 + 0.026122 - 148 / 44100, 9);
  });

  it('say nothing of the end when none was listed from where it was asked', () => {
    const json = JSON.stringify({
      packets: [{ pts_time: '98.977959', duration_time: '0.026122', pos: '1' }],
    });
    // The stated length was too long: the listing of its last seconds found no packet.
    expect(readStreamEnd(json, 120, 44100)).toBeNull();
    expect(readStreamEnd('{"packets": [{"pts_time": "98.9", "pos": "1"}]}', 90, 44100)).toBeNull();
    expect(readStreamEnd('', 0, 44100)).toBeNull();
  });

  it('say nothing of the end when the file goes on past the last one listed', () => {
    const packets = [
      { pts_time: '540.0', duration_time: '0.036', pos: '540000', size: '36' },
      { pts_time: '600.0', duration_time: '0.036', pos: '600000', size: '36' },
    ];
    const listed = (size?: number) =>
      JSON.stringify({
        packets,
        ...(size === undefined ? {} : { format: { size: String(size) } }),
      });
    expect(readStreamEnd(listed(600_036), 539, 16000)).toBeCloseTo(600.036, 9);
    // Ten megabytes more of stream after the listing: a header that understates the length,
    // or a listing cut short, is not the stream's end.
    expect(readStreamEnd(listed(10_800_000), 539, 16000)).toBeNull();
    expect(readStreamEnd(listed(600_036 + 2_000), 539, 16000)).toBeNull();
    expect(readStreamEnd(listed(), 539, 16000)).toBeNull();
  });
});

describe('a stream going on past its stated end', () => {
  const packet = (time: number, pos: number, padding = 0) => ({
    pts_time: String(time),
    duration_time: '0.072',
    pos: String(pos),
    size: '72',
    ...(padding > 0 ? { side_data_list: [{ discard_padding: padding }] } : {}),
  });
  const listed = (packets: object[], size: number) =>
    JSON.stringify({ packets, format: { size: String(size) } });

  it('is seen in packets listed well past the stated end, none to drop, the file going on', () => {
    // Stated 60 s; packets listed from 57 s to 117 s of a file of 10 MB.
    const packets = [packet(57, 57_000), packet(90, 90_000), packet(117, 117_000)];
    expect(readGoesOn(listed(packets, 10_000_000), 60, settings)).toBe(true);
  });

  it('is not seen where a packet says padding is to be dropped', () => {
    // A header's end, its padding dropped there, and more audio after it (files appended).
    const packets = [packet(57, 57_000), packet(60, 60_000, 576), packet(117, 117_000)];
    expect(readGoesOn(listed(packets, 10_000_000), 60, settings)).toBe(false);
  });

  it('is not seen in a listing that stops before the stated end and a margin', () => {
    // Cut short at 61.9 s (an ffprobe that stopped early): the padding may lie just after.
    const packets = [packet(57, 57_000), packet(61.9, 61_900)];
    expect(readGoesOn(listed(packets, 10_000_000), 60, settings)).toBe(false);
    expect(readGoesOn('', 60, settings)).toBe(false);
  });

  it('is not seen where the last packet listed ends the file', () => {
    const packets = [packet(57, 57_000), packet(90, 90_000)];
    expect(readGoesOn(listed(packets, 90_072 + 128), 60, settings)).toBe(false);
  });

  it('lets a window past the stated end be read from a packet, its whole span', () => {
    const mp3 = probe('mp3', 60);
    const anchors = [{ time: 198.9, byte: 200_000 }];
    expect(seekOptions({ anchors, end: null, goesOn: true }, mp3, 199.4, 100.6, settings)).toEqual([
      '-skip_initial_bytes',
      '200000',
      '-f',
      'mp3',
      '-ss',
      '0.500000',
      '-t',
      '100.600000',
    ]);
    // Without it, the window is sought from the start.
    expect(seekOptions({ anchors, end: null, goesOn: false }, mp3, 199.4, 100.6, settings)[0]).toBe(
      '-ss',
    );
  });
});

describe('how a window is sought', () => {
  const mp3 = probe('mp3', 450, 0.025);
  const anchors = [
    { time: 98.4, byte: 1_000 },
    { time: 198.45, byte: 2_000 },
    { time: 198.9, byte: 2_100 },
    { time: 348.5, byte: 3_000 },
  ];
  const plan = { anchors, end: null, goesOn: false };

  it('reads from the latest packet at least half a second before the start', () => {
    // 199.4 s of audio is 199.425 s on the stream's clock: 198.9 is 0.525 s before it.
    expect(seekOptions(plan, mp3, 199.4, 100.6, settings)).toEqual([
      '-skip_initial_bytes',
      '2100',
      '-f',
      'mp3',
      '-ss',
      (199.425 - 198.9).toFixed(6),
      '-t',
      '100.600000',
    ]);
    // 199.3 s is 199.325 on the stream's clock: 198.9 is too close, 198.45 is used.
    expect(seekOptions(plan, mp3, 199.3, 100.6, settings).slice(0, 2)).toEqual([
      '-skip_initial_bytes',
      '2000',
    ]);
  });

  it('seeks from the start when no packet is early enough', () => {
    const ordinary = (at: string) => ['-ss', at, '-t', '100.600000'];
    expect(seekOptions(plan, mp3, 98.5, 100.6, settings)).toEqual(ordinary('98.500000'));
    expect(
      seekOptions({ anchors: [], end: null, goesOn: false }, mp3, 199.4, 100.6, settings),
    ).toEqual(ordinary('199.400000'));
  });

  it('reads the window that reaches the end from a packet only where the end is known', () => {
    // From 349.4 s the window would end at 450 s: the stated end, which may be an estimate.
    expect(seekOptions(plan, mp3, 349.4, 100.6, settings)).toEqual([
      '-ss',
      '349.400000',
      '-t',
      '100.600000',
    ]);
    // The end is listed at 449.9 s on the stream's clock: the read stops there, 100.475 s on.
    expect(
      seekOptions({ anchors, end: 449.9, goesOn: false }, mp3, 349.4, 100.6, settings),
    ).toEqual([
      '-skip_initial_bytes',
      '3000',
      '-f',
      'mp3',
      '-ss',
      (349.425 - 348.5).toFixed(6),
      '-t',
      (449.9 - 349.425).toFixed(6),
    ]);
    // A listed end before the window (a wrong stated length) is not trusted.
    expect(seekOptions({ anchors, end: 300, goesOn: false }, mp3, 349.4, 100.6, settings)[0]).toBe(
      '-ss',
    );
  });
});
