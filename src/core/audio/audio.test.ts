import { describe, expect, it } from 'vitest';
import { ServiceError } from '../contract/errors';
import {
  billableSeconds,
  channelBilling,
  silentChannelCount,
  similarChannelCount,
} from './billing';
import { contentAgreement } from './channel-content';
import { areSimilar, compareChannels, envelopeFrameLength } from './channel-similarity';
import { FrameLevelMeter, SILENCE_DB, frameLevelsDb, peakLevelDb, rmsLevelDb } from './levels';
import { isMediaContentType, sniffMedia } from './media-kind';
import { socialPlatformOf } from './media-url';
import { providedFileMetadata, readProbe } from './probe';
import { isSilentChannel } from './silence';
import { denoiseStretches, noiseFramesOutside, spectralDenoise } from './spectral-denoise';
import {
  UNSETTLED_SECONDS,
  settledSpeechRegions,
  spanDuration,
  speechRegions,
} from './speech-regions';
import { alignWindow } from './window-alignment';

const RATE = 16_000;

/** A deterministic generator, so that the synthetic signals are the same on every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Speech-like audio: noise bursts of syllable length with pauses, only inside `turns`. */
function talker(
  seconds: number,
  seed: number,
  turns: (t: number) => boolean = () => true,
): Float32Array {
  const random = rng(seed);
  const out = new Float32Array(seconds * RATE);
  let t = 0;
  while (t < out.length) {
    const burst = Math.floor((0.08 + random() * 0.25) * RATE);
    const pause = Math.floor((0.03 + random() * 0.3) * RATE);
    const amp = 0.05 + random() * 0.4;
    const freq = 120 + random() * 200;
    for (let i = 0; i < burst && t + i < out.length; i++) {
      if (!turns((t + i) / RATE)) continue;
      const env = Math.sin((Math.PI * i) / burst);
      out[t + i] =
        amp *
        env *
        (0.6 * Math.sin((2 * Math.PI * freq * (t + i)) / RATE) + 0.4 * (random() * 2 - 1));
    }
    t += burst + pause;
  }
  return out;
}

describe('levels', () => {
  it('measures full-scale and half-scale signals', () => {
    const square = new Float32Array(1600).map((_, i) => (i % 2 ? 1 : -1));
    expect(rmsLevelDb(square)).toBeCloseTo(0, 5);
    expect(peakLevelDb(square.map((s) => s / 2))).toBeCloseTo(-6.02, 1);
    expect(frameLevelsDb(square, 160)).toHaveLength(10);
  });
  it('reports silence and refuses a bad frame length', () => {
    expect(rmsLevelDb(new Float32Array(100))).toBe(SILENCE_DB);
    expect(peakLevelDb(new Float32Array(0))).toBe(SILENCE_DB);
    expect(() => frameLevelsDb(new Float32Array(10), 0)).toThrow(RangeError);
    expect(() => new FrameLevelMeter(1.5)).toThrow(RangeError);
  });
  it('measures a signal that arrives in uneven stretches as it would measure it whole', () => {
    const random = rng(5);
    const floats = Float32Array.from({ length: 100_003 }, () => random() * 2 - 1);
    const shorts = Int16Array.from(floats, (s) => Math.round(s * 20000));
    for (const signal of [floats, shorts]) {
      const meter = new FrameLevelMeter(160);
      // Cuts inside frames, on frame edges, and stretches shorter than a frame.
      const cuts = [0, 7, 160, 161, 50_000, 50_090, 99_999];
      for (let i = 0; i + 1 < cuts.length; i++) meter.push(signal.subarray(cuts[i], cuts[i + 1]));
      const tail = signal.subarray(99_999);
      const whole = frameLevelsDb(signal, 160);
      expect(meter.levelsWith(tail)).toEqual(whole);
      // Asking with a tail leaves the meter where it was.
      expect(meter.levels()).toEqual(whole.subarray(0, Math.floor(99_999 / 160)));
      meter.push(tail);
      expect(meter.levels()).toEqual(whole);
    }
  });
});

describe('speech regions', () => {
  const w = 0.032;
  it('opens on the threshold, bridges short pauses and pads the edges', () => {
    const p = [0, 0, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.1, 0.9, 0.9, 0.9, 0.9, 0, 0, 0, 0, 0, 0];
    const regions = speechRegions(p, 1, {
      windowSeconds: w,
      minSilenceSeconds: 0.1,
      padSeconds: 0.03,
    });
    expect(regions).toHaveLength(1);
    expect(regions[0]!.start).toBeCloseTo(2 * w - 0.03, 6);
    expect(regions[0]!.end).toBeCloseTo(14 * w + 0.03, 6);
    expect(spanDuration(regions)).toBeCloseTo(12 * w + 0.06, 6);
  });
  it('drops blips shorter than the minimum and refuses inconsistent thresholds', () => {
    expect(speechRegions([0, 0.9, 0, 0, 0, 0, 0, 0], 1)).toEqual([]);
    expect(speechRegions([], 0)).toEqual([]);
    expect(() => speechRegions([0.5], 1, { threshold: 0.3, negativeThreshold: 0.4 })).toThrow(
      RangeError,
    );
  });
  it('keeps speech that runs to the end of the file', () => {
    const regions = speechRegions(new Array(20).fill(0.99), 0.64);
    expect(regions).toEqual([{ start: 0, end: 0.64 }]);
  });
  it('settles, from any part of a channel, only regions that the whole channel has', () => {
    const random = rng(7);
    // Runs of speech and pause of random lengths, with noisy probabilities.
    const p: number[] = [];
    while (p.length < 4000) {
      const speech = random() < 0.5;
      const run = 3 + Math.floor(random() * 120);
      for (let k = 0; k < run; k++) p.push(speech ? 0.15 + 0.85 * random() : 0.1 * random());
    }
    const duration = p.length * w;
    const whole = speechRegions(p, duration);
    expect(whole.length).toBeGreaterThan(10);
    let settledBefore = 0;
    for (let windows = 0; windows <= p.length; windows += 37) {
      const settled = settledSpeechRegions(p.slice(0, windows), windows * w, false);
      expect(settled).toEqual(whole.slice(0, settled.length));
      expect(settled.length).toBeGreaterThanOrEqual(settledBefore);
      settledBefore = settled.length;
    }
    expect(settledBefore).toBeGreaterThan(whole.length - 3);
    expect(settledSpeechRegions(p, duration, true)).toEqual(whole);
  });
  it('does not settle a region still open at the end of what was scored', () => {
    const p = [...new Array(40).fill(0), ...new Array(60).fill(0.9)];
    expect(speechRegions(p, 100 * w)).toHaveLength(1);
    expect(settledSpeechRegions(p, 100 * w, false)).toEqual([]);
    // Nor one that closed less than UNSETTLED_SECONDS ago: the next may follow closely.
    const closed = [...p, ...new Array(10).fill(0)];
    expect(settledSpeechRegions(closed, 110 * w, false)).toEqual([]);
    const later = [...closed, ...new Array(Math.ceil(UNSETTLED_SECONDS / w)).fill(0)];
    expect(settledSpeechRegions(later, later.length * w, false)).toHaveLength(1);
  });
});

describe('silence', () => {
  it('is silent when too quiet or without speech', () => {
    expect(isSilentChannel(-90, null)).toBe(true);
    expect(isSilentChannel(-10, 0.1)).toBe(true);
  });
  it('is not silent with speech', () => {
    expect(isSilentChannel(-10, 3)).toBe(false);
    expect(isSilentChannel(-10, null)).toBe(false);
  });
  it('is not silent when loud where VAD found no speech', () => {
    expect(isSilentChannel(-10, 0, 5)).toBe(false);
    expect(isSilentChannel(-10, 0, 0.1)).toBe(true);
  });
});

describe('channel similarity', () => {
  const a = talker(8, 1);
  it('finds identical, delayed, attenuated and noisy copies similar', () => {
    expect(compareChannels(a, a, RATE).score).toBeCloseTo(1, 6);
    const delayed = new Float32Array(a.length);
    delayed.set(a.subarray(0, a.length - 4000), 4000);
    const d = compareChannels(a, delayed, RATE);
    expect(areSimilar(d)).toBe(true);
    expect(d.lagSeconds).toBeCloseTo(0.25, 2);
    const quiet = a.map((s) => s * 0.1);
    expect(compareChannels(a, quiet, RATE).score).toBeGreaterThan(0.99);
    const random = rng(9);
    const noisy = a.map((s) => s + (random() * 2 - 1) * 0.003);
    expect(areSimilar(compareChannels(a, noisy, RATE))).toBe(true);
  });
  it('finds two people talking in turns distinct', () => {
    const left = talker(8, 2, (t) => Math.floor(t / 1.5) % 2 === 0);
    const right = talker(8, 3, (t) => Math.floor(t / 1.5) % 2 === 1);
    const c = compareChannels(left, right, RATE);
    expect(areSimilar(c)).toBe(false);
    expect(c.score).toBeLessThan(0.3);
  });
  it('confirms a copy by its spectra, and two talkers with one rhythm as distinct', () => {
    const copy = compareChannels(
      a,
      a.map((s) => s * 0.3),
      RATE,
    );
    expect(copy.content).toBeGreaterThan(0.95);
    // The same bursts and pauses (one envelope) with other tones in them.
    const random = rng(21);
    const other = a.map((s, i) => (s === 0 ? 0 : Math.abs(s) * Math.sin(i * 0.9 + random())));
    const c = compareChannels(a, other, RATE);
    expect(c.score).toBeGreaterThan(0.8);
    expect(c.content).toBeLessThan(0.6);
    expect(areSimilar(c)).toBe(false);
  });
  it('gives the same verdict from envelope levels measured beforehand', () => {
    const delayed = new Float32Array(a.length);
    delayed.set(
      a.subarray(0, a.length - 4000).map((s) => s * 0.5),
      4000,
    );
    const other = talker(8, 4);
    for (const b of [a, delayed, other]) {
      const frame = envelopeFrameLength(RATE);
      const measured = { a: frameLevelsDb(a, frame), b: frameLevelsDb(b, frame) };
      const before = { a: measured.a.slice(), b: measured.b.slice() };
      expect(compareChannels(a, b, RATE, {}, measured)).toEqual(compareChannels(a, b, RATE));
      // The caller's levels are not changed.
      expect(measured).toEqual(before);
    }
    // Levels that are not the real ones change the verdict: they are what is used.
    const flat = { a: new Float32Array(800).fill(-20), b: frameLevelsDb(delayed, 160) };
    expect(compareChannels(a, delayed, RATE, {}, flat).score).toBe(0);
  });
  it('judges nothing on too little sound in both channels, and refuses a bad rate', () => {
    const short = a.subarray(0, 4000);
    expect(contentAgreement(short, short, RATE, 0)).toBeNull();
    expect(contentAgreement(a, a, RATE, 0)).toBeCloseTo(1, 6);
    expect(() => contentAgreement(a, a, 0, 0)).toThrow(RangeError);
  });
  it('finds two different talkers at once distinct, and refuses a bad rate', () => {
    expect(areSimilar(compareChannels(talker(8, 4), talker(8, 5), RATE))).toBe(false);
    expect(compareChannels(new Float32Array(10), new Float32Array(10), RATE).score).toBe(0);
    expect(() => compareChannels(a, a, 0)).toThrow(RangeError);
  });
});

describe('billing (spec section 8)', () => {
  it('bills two channels with speech twice (rule 1)', () => {
    const billing = channelBilling(
      [
        { index: 0, silent: false, similarTo: null },
        { index: 1, silent: false, similarTo: null },
      ],
      3600,
    );
    expect(billing.map((b) => b.reason)).toEqual(['billed', 'billed']);
    expect(billableSeconds(billing)).toBe(7200);
  });
  it('does not bill a silent channel (rule 2)', () => {
    const verdicts = [
      { index: 0, silent: false, similarTo: null },
      { index: 1, silent: true, similarTo: null },
    ];
    const billing = channelBilling(verdicts, 3600);
    expect(billableSeconds(billing)).toBe(3600);
    expect(billing[1]).toEqual({
      channel: 'channel_1',
      billable_seconds: 0,
      reason: 'silent',
      similar_to: null,
    });
    expect(silentChannelCount(verdicts)).toBe(1);
  });
  it('bills similar channels once, on channel 0 (rule 3)', () => {
    const verdicts = [
      { index: 0, silent: false, similarTo: null },
      { index: 1, silent: false, similarTo: 0 },
    ];
    const billing = channelBilling(verdicts, 3600);
    expect(billableSeconds(billing)).toBe(3600);
    expect(billing[1]).toMatchObject({ reason: 'similar', similar_to: 'channel_0' });
    expect(similarChannelCount(verdicts)).toBe(1);
  });
  it('counts -1 silent channels for mono and refuses an impossible verdict', () => {
    expect(silentChannelCount([{ index: 0, silent: true, similarTo: null }])).toBe(-1);
    expect(() => channelBilling([{ index: 0, silent: false, similarTo: 1 }], 10)).toThrow(
      RangeError,
    );
    expect(() => channelBilling([], -1)).toThrow(RangeError);
  });
});

describe('media sniffing', () => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  it('recognises text, web pages, images and documents', () => {
    expect(sniffMedia(bytes('hello, this is a note\n')).kind).toBe('text');
    const exe = new Uint8Array(512);
    exe.set(bytes('MZ'));
    expect(sniffMedia(exe)).toEqual({ kind: 'program', label: 'Windows program' });
    expect(sniffMedia(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0])).label).toBe(
      'Linux program',
    );
    expect(sniffMedia(bytes('  <!DOCTYPE html><html>')).kind).toBe('html');
    expect(sniffMedia(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])).label).toBe(
      'PNG image',
    );
    expect(sniffMedia(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0x10])).kind).toBe('image');
    expect(sniffMedia(bytes('%PDF-1.7\n')).kind).toBe('pdf');
  });
  it('leaves audio and video to the decoder', () => {
    const wav = new Uint8Array([
      ...bytes('RIFF'),
      0x24,
      0,
      0,
      0,
      ...bytes('WAVEfmt '),
      16,
      0,
      0,
      0,
      1,
      0,
    ]);
    expect(sniffMedia(wav).kind).toBeNull();
    expect(sniffMedia(new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0x23])).kind).toBeNull();
    expect(sniffMedia(new Uint8Array([0xff, 0xfb, 0x90, 0x64, 0x00])).kind).toBeNull();
  });
  it('accepts media content types and refuses pages', () => {
    expect(isMediaContentType('audio/mpeg')).toBe(true);
    expect(isMediaContentType(null)).toBe(true);
    expect(isMediaContentType('text/html; charset=utf-8')).toBe(false);
    expect(isMediaContentType('application/json')).toBe(false);
  });
});

describe('social platform URLs', () => {
  it('names the platform of a page URL', () => {
    expect(socialPlatformOf('https://www.youtube.com/watch?v=abc')).toBe('YouTube');
    expect(socialPlatformOf('https://youtu.be/abc')).toBe('YouTube');
    expect(socialPlatformOf('https://vm.tiktok.com/x')).toBe('TikTok');
    expect(socialPlatformOf('https://x.com/a/status/1')).toBe('X (Twitter)');
    expect(socialPlatformOf('https://fb.watch/abc')).toBe('Facebook');
    expect(socialPlatformOf('https://vimeo.com/123')).toBe('Vimeo');
  });
  it('leaves other addresses alone', () => {
    expect(socialPlatformOf('https://example.com/talk.mp3')).toBeNull();
    expect(socialPlatformOf('https://notyoutube.com/a.mp3')).toBeNull();
    expect(socialPlatformOf('not a url')).toBeNull();
  });
});

describe('probe', () => {
  const probe = (streams: object[], format: object = { format_name: 'wav', duration: '2.5' }) =>
    JSON.stringify({ streams, format });
  it('reads stereo 24-bit flac and an mp4 with sound', () => {
    const flac = readProbe(
      probe([
        {
          index: 0,
          codec_type: 'audio',
          codec_name: 'flac',
          sample_fmt: 's32',
          sample_rate: '44100',
          channels: 2,
          bits_per_sample: 0,
          bits_per_raw_sample: '24',
        },
      ]),
      'a.flac',
    );
    expect(flac).toMatchObject({
      channels: 2,
      sampleRate: 44100,
      sampleWidth: 24,
      duration: 2.5,
      hasVideo: false,
      startTime: 0,
    });
    const mp4 = readProbe(
      probe([
        { index: 0, codec_type: 'video', codec_name: 'h264' },
        {
          index: 1,
          codec_type: 'audio',
          codec_name: 'aac',
          sample_fmt: 'fltp',
          sample_rate: '44100',
          channels: 2,
          bits_per_sample: 0,
        },
      ]),
      'a.mp4',
    );
    expect(mp4).toMatchObject({ streamIndex: 1, sampleWidth: 16, hasVideo: true });
    expect(providedFileMetadata(mp4, 2.5004, 0)).toEqual({
      nb_channels: 2,
      sample_rate: 44100,
      sample_width: 16,
      duration: 2.5,
      original_file_type: 'video',
      number_similar_channels: 0,
    });
  });
  it('treats cover art as audio', () => {
    const mp3 = readProbe(
      probe([
        {
          index: 0,
          codec_type: 'audio',
          codec_name: 'mp3',
          sample_fmt: 'fltp',
          sample_rate: '44100',
          channels: 2,
          start_time: '0.025057',
        },
        { index: 1, codec_type: 'video', codec_name: 'mjpeg', disposition: { attached_pic: 1 } },
      ]),
      'a.mp3',
    );
    expect(mp3.hasVideo).toBe(false);
    // The encoder's padding, which the decoder drops, delays the first sample.
    expect(mp3.startTime).toBe(0.025057);
    const aac = { index: 0, codec_type: 'audio', codec_name: 'aac', sample_rate: '48000' };
    const startOf = (start_time: string) =>
      readProbe(probe([{ ...aac, channels: 1, start_time }]), 'a.m4a').startTime;
    expect(startOf('-0.021333')).toBe(-0.021333);
    expect(startOf('N/A')).toBe(0);
  });
  it('refuses images, silent videos, unknown codecs and unreadable files', () => {
    const fail = (json: string) => {
      try {
        readProbe(json, 'f');
      } catch (e) {
        return e as ServiceError;
      }
      throw new Error('expected a failure');
    };
    expect(
      fail(probe([{ codec_type: 'video', codec_name: 'png' }], { format_name: 'png_pipe' })).code,
    ).toBe('unsupported_media');
    expect(fail(probe([{ codec_type: 'video', codec_name: 'h264' }])).message).toContain(
      'without an audio track',
    );
    expect(
      fail(
        probe([
          {
            codec_type: 'audio',
            codec_tag_string: '[52][18][0][0]',
            channels: 1,
            sample_rate: '8000',
          },
        ]),
      ).message,
    ).toContain('codec');
    expect(fail('').code).toBe('undecodable_media');
  });
});

describe('window alignment', () => {
  const signal = talker(2, 7);
  it('finds the offset of a shifted window', () => {
    const maxLag = 400;
    const probe = signal.subarray(8000 + 123, 8000 + 123 + 3200);
    const reference = signal.subarray(8000 - maxLag, 8000 + 3200 + maxLag);
    expect(alignWindow(reference, probe, maxLag)).toMatchObject({ lag: 123 });
  });
  it('keeps the nominal place in silence and refuses mismatched lengths', () => {
    expect(alignWindow(new Float32Array(300), new Float32Array(100), 100)).toEqual({
      lag: 0,
      correlation: 0,
    });
    expect(() => alignWindow(new Float32Array(10), new Float32Array(10), 1)).toThrow(RangeError);
  });
});

describe('spectral denoiser', () => {
  const speech = talker(6, 11);
  const random = rng(12);
  const noise = new Float32Array(speech.length).map(() => (random() * 2 - 1) * 0.05);
  const snr = (x: Float32Array) => {
    let signal = 0;
    let error = 0;
    for (let i = 0; i < speech.length; i++) {
      signal += speech[i]! ** 2;
      error += (x[i]! - speech[i]!) ** 2;
    }
    return 10 * Math.log10(signal / error);
  };
  it('lowers noise and keeps timing', () => {
    const noisy = speech.map((s, i) => s + noise[i]!);
    const out = spectralDenoise(noisy);
    expect(out).toHaveLength(noisy.length);
    expect(snr(out) - snr(noisy)).toBeGreaterThan(2);
  });
  it('leaves clean speech nearly unchanged, and measures noise where told', () => {
    expect(snr(spectralDenoise(speech))).toBeGreaterThan(20);
    const mask = noiseFramesOutside([{ start: 1, end: 2 }], 3 * RATE, RATE);
    expect(mask[0]).toBe(true);
    expect(mask[Math.round((1.5 * RATE) / 256)]).toBe(false);
  });
  it('gives the same output read and written a stretch at a time, each sample once in order', () => {
    // Long enough for several stretches, with the noise measured outside a region.
    const noisy = Float32Array.from({ length: 5 * speech.length }, (_, i) => {
      const j = i % speech.length;
      return speech[j]! + noise[j]!;
    });
    const noiseFrames = noiseFramesOutside([{ start: 0.5, end: 2 }], noisy.length, RATE);
    const whole = spectralDenoise(noisy, { noiseFrames });
    const out = new Float32Array(noisy.length);
    let next = 0;
    denoiseStretches(
      { length: noisy.length, floats: (from, to) => noisy.slice(from, to), inOrder: true },
      (at, stretch) => {
        expect(at).toBe(next);
        out.set(stretch, at);
        next = at + stretch.length;
      },
      { noiseFrames },
    );
    expect(next).toBe(noisy.length);
    expect(out).toEqual(whole);
  });
  it('refuses a frame length that is not a power of two, and passes silence through', () => {
    expect(() => spectralDenoise(speech, { frameLength: 500 })).toThrow(RangeError);
    expect(spectralDenoise(new Float32Array(1000)).every((s) => s === 0)).toBe(true);
    expect(spectralDenoise(new Float32Array(0))).toHaveLength(0);
  });
});
