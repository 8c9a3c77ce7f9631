import { describe, expect, it } from 'vitest';
import { fft, fftPlan } from './fft';

function naiveDft(re: Float64Array, im: Float64Array): [Float64Array, Float64Array] {
  const n = re.length;
  const outRe = new Float64Array(n);
  const outIm = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    for (let t = 0; t < n; t++) {
      const a = (-2 * Math.PI * k * t) / n;
      outRe[k]! += re[t]! * Math.cos(a) - im[t]! * Math.sin(a);
      outIm[k]! += re[t]! * Math.sin(a) + im[t]! * Math.cos(a);
    }
  }
  return [outRe, outIm];
}

describe('FFT', () => {
  it.each([1, 2, 7, 12, 16, 45, 400, 512])('matches a direct DFT at length %i', (n) => {
    let seed = n;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 2 - 1;
    const re = Float64Array.from({ length: n }, random);
    const im = Float64Array.from({ length: n }, random);
    const [expectRe, expectIm] = naiveDft(re, im);
    fft(fftPlan(n), re, im);
    for (let k = 0; k < n; k++) {
      expect(re[k]).toBeCloseTo(expectRe[k]!, 9);
      expect(im[k]).toBeCloseTo(expectIm[k]!, 9);
    }
  });

  it('factors 400 into radices 4, 4, 5, 5', () => {
    expect(fftPlan(400).radices).toEqual([4, 4, 5, 5]);
  });
});
