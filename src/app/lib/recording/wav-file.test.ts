import { describe, expect, it } from 'vitest';
import { interleave16, peakLevel } from './pcm16';
import { Resampler } from './resampler';
import { recordingFileName, recordingTitle, wavBlob } from './wav-file';

describe('a recording as a WAV file', () => {
  it('holds the blocks in order behind a header that describes them', async () => {
    const a = interleave16([Float32Array.of(0, 0.5), Float32Array.of(-1, 1)]);
    const b = interleave16([Float32Array.of(0.25), Float32Array.of(-0.25)]);
    const bytes = new DataView(await wavBlob([a, b], 2, 16000).arrayBuffer());
    const text = (at: number) =>
      String.fromCharCode(...[0, 1, 2, 3].map((i) => bytes.getUint8(at + i)));
    expect([text(0), text(8), text(12), text(36)]).toEqual(['RIFF', 'WAVE', 'fmt ', 'data']);
    expect(bytes.getUint16(22, true)).toBe(2);
    expect(bytes.getUint32(24, true)).toBe(16000);
    expect(bytes.getUint32(40, true)).toBe(12);
    expect(bytes.getUint32(4, true)).toBe(36 + 12);
    const samples = [0, 1, 2, 3, 4, 5].map((i) => bytes.getInt16(44 + i * 2, true));
    expect(samples).toEqual([0, -32768, 16384, 32767, 8192, -8192]);
  });

  it('clips samples beyond full scale', () => {
    expect([...interleave16([Float32Array.of(2, -3)])]).toEqual([32767, -32768]);
  });

  it('is named and offered by when it started, in local time', () => {
    const at = new Date(2026, 10, 26, 14, 2, 30).getTime();
    expect(recordingFileName(at)).toBe('Recording 2026-11-26 14-02.wav');
    expect(recordingTitle(at, 12 * 60 + 10)).toBe('Recording of 14:02, 12 min');
    expect(recordingTitle(at, 42.4)).toBe('Recording of 14:02, 42 s');
  });
});

describe('levels and resampling', () => {
  it('reads the peak of a block', () => {
    expect(peakLevel(Float32Array.of(0.1, -0.7, 0.3))).toBeCloseTo(0.7);
    expect(peakLevel(new Float32Array(4))).toBe(0);
  });

  it('turns 48 kHz into 16 kHz block by block without losing or repeating samples', () => {
    const resampler = new Resampler(48000);
    const ramp = Float32Array.from({ length: 4800 }, (_, i) => i);
    const out: number[] = [];
    for (let at = 0; at < ramp.length; at += 128)
      out.push(...resampler.push(ramp.slice(at, at + 128)));
    expect(out.length).toBeGreaterThanOrEqual(1599);
    expect(out.length).toBeLessThanOrEqual(1600);
    out.forEach((v, i) => expect(v).toBeCloseTo(i * 3, 5));
  });

  it('resamples a rate that is not a multiple of 16 kHz', () => {
    const resampler = new Resampler(44100);
    const ramp = Float32Array.from({ length: 44100 }, (_, i) => i / 44100);
    const out = [...resampler.push(ramp.subarray(0, 1000)), ...resampler.push(ramp.subarray(1000))];
    expect(Math.abs(out.length - 16000)).toBeLessThanOrEqual(1);
    out.forEach((v, i) => expect(v).toBeCloseTo(i / 16000, 5));
  });
});
