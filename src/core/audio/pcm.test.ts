import { describe, expect, it } from 'vitest';
import { streamSamples, type SpeechStream } from '../decoding/speech-streams';
import { peakLevelDb, frameLevelsDb } from './levels';
import { compactPcm, pcmFloats, pcmPeak, storeFloats } from './pcm';

describe('16-bit channels', () => {
  const floats = Float32Array.from([0, 0.5, -0.5, 1, -1, 1.5, -2, 0.25 / 32768]);
  it('round and clip floats to 16 bits, and read them back as floats', () => {
    const compact = compactPcm(floats);
    expect(Array.from(compact)).toEqual([0, 16384, -16384, 32767, -32768, 32767, -32768, 0]);
    expect(Array.from(pcmFloats(compact, 1, 3))).toEqual([0.5, -0.5]);
    const target = new Int16Array(4);
    storeFloats(target, 2, [0.25, -0.25]);
    expect(Array.from(target)).toEqual([0, 0, 8192, -8192]);
  });
  it('give a view of float channels, clamped to the channel', () => {
    const view = pcmFloats(floats, 5, 100);
    expect(view.buffer).toBe(floats.buffer);
    expect(view.length).toBe(3);
    expect(pcmFloats(floats, 9, 4).length).toBe(0);
  });
  it('measure the same levels in either form', () => {
    const tone = Float32Array.from({ length: 3200 }, (_, i) => 0.3 * Math.sin(i / 7));
    const compact = compactPcm(tone);
    expect(pcmPeak(compact)).toBeCloseTo(pcmPeak(tone), 4);
    expect(peakLevelDb(compact)).toBeCloseTo(peakLevelDb(tone), 3);
    const a = frameLevelsDb(tone, 320);
    const b = frameLevelsDb(compact, 320);
    for (let i = 0; i < a.length; i++) expect(b[i]).toBeCloseTo(a[i]!, 2);
  });
  it('lay out recognition streams from either form', () => {
    const tone = Float32Array.from({ length: 48000 }, (_, i) => 0.2 * Math.sin(i / 5));
    const stream: SpeechStream = {
      pieces: [
        { fileStart: 0.5, fileEnd: 1, streamStart: 0 },
        { fileStart: 2, fileEnd: 2.5, streamStart: 0.6 },
      ],
      length: 1.1,
    };
    const exact = streamSamples(stream, tone, 16000);
    const kept = streamSamples(stream, compactPcm(tone), 16000);
    expect(kept.length).toBe(exact.length);
    for (let i = 0; i < exact.length; i++)
      expect(Math.abs(kept[i]! - exact[i]!)).toBeLessThan(2e-5);
    expect(kept.subarray(8000, 9600).every((s) => s === 0)).toBe(true);
  });
});
