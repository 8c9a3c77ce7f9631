/**
 * A complex FFT of any length, by mixed-radix Stockham stages (radix 4, then prime radices,
 * each butterfly a small direct DFT). Whisper's 400-point frames factor as 4·4·5·5, which a
 * power-of-two FFT cannot do without padding to another length or a chirp transform.
 */
/** One stage of radix r over sequences of length n: its small DFT and its twiddles. */
interface Stage {
  r: number;
  n: number;
  /** ω_r^{tu} at [t·r + u]. */
  dftCos: Float64Array;
  dftSin: Float64Array;
  /** ω_n^{pu} at [p·r + u]. */
  twCos: Float64Array;
  twSin: Float64Array;
}

export interface FftPlan {
  readonly size: number;
  /** Radix of each stage, in order. */
  readonly radices: readonly number[];
  readonly stages: readonly Stage[];
  /** Work buffers (a plan is used by one caller at a time). */
  readonly scratchRe: Float64Array;
  readonly scratchIm: Float64Array;
}

function factorise(n: number): number[] {
  const radices: number[] = [];
  while (n % 4 === 0) {
    radices.push(4);
    n /= 4;
  }
  for (let p = 2; n > 1; p++) {
    while (n % p === 0) {
      radices.push(p);
      n /= p;
    }
  }
  return radices;
}

/** cos and sin of -2π(a·b mod n)/n at [a·cols + b], for a < rows and b < cols. */
function roots(rows: number, cols: number, n: number): [Float64Array, Float64Array] {
  const cos = new Float64Array(rows * cols);
  const sin = new Float64Array(rows * cols);
  for (let a = 0; a < rows; a++) {
    for (let b = 0; b < cols; b++) {
      const angle = (-2 * Math.PI * ((a * b) % n)) / n;
      cos[a * cols + b] = Math.cos(angle);
      sin[a * cols + b] = Math.sin(angle);
    }
  }
  return [cos, sin];
}

export function fftPlan(size: number): FftPlan {
  if (!Number.isInteger(size) || size < 1)
    throw new RangeError('FFT size must be a positive integer.');
  const radices = factorise(size);
  const stages: Stage[] = [];
  let n = size;
  for (const r of radices) {
    const m = n / r;
    const [dftCos, dftSin] = roots(r, r, r);
    const [twCos, twSin] = roots(m, r, n);
    stages.push({ r, n, dftCos, dftSin, twCos, twSin });
    n = m;
  }
  return {
    size,
    radices,
    stages,
    scratchRe: new Float64Array(size),
    scratchIm: new Float64Array(size),
  };
}

/**
 * In place: (re, im) becomes its DFT, X[k] = Σ x[n] e^{-2πikn/N}. Each stage of radix r over
 * sequences of length n at stride s computes, for every p < n/r and q < s,
 * y[q + s(rp + u)] = ω_n^{pu} Σ_t x[q + s(p + t·n/r)] ω_r^{tu}.
 */
export function fft(plan: FftPlan, re: Float64Array, im: Float64Array): void {
  let xRe = re;
  let xIm = im;
  let yRe = plan.scratchRe;
  let yIm = plan.scratchIm;
  let s = 1;
  const bufRe = new Float64Array(Math.max(...plan.radices, 1));
  const bufIm = new Float64Array(bufRe.length);
  for (const { r, n, dftCos, dftSin, twCos, twSin } of plan.stages) {
    const m = n / r;
    for (let p = 0; p < m; p++) {
      for (let q = 0; q < s; q++) {
        for (let t = 0; t < r; t++) {
          const i = q + s * (p + t * m);
          bufRe[t] = xRe[i]!;
          bufIm[t] = xIm[i]!;
        }
        if (r === 4) {
          // ω_4 = -i: the small DFT without multiplications.
          const t0r = bufRe[0]! + bufRe[2]!;
          const t0i = bufIm[0]! + bufIm[2]!;
          const t1r = bufRe[0]! - bufRe[2]!;
          const t1i = bufIm[0]! - bufIm[2]!;
          const t2r = bufRe[1]! + bufRe[3]!;
          const t2i = bufIm[1]! + bufIm[3]!;
          const t3r = bufIm[1]! - bufIm[3]!;
          const t3i = bufRe[3]! - bufRe[1]!;
          bufRe[0] = t0r + t2r;
          bufIm[0] = t0i + t2i;
          const y1r = t1r + t3r;
          const y1i = t1i + t3i;
          bufRe[2] = t0r - t2r;
          bufIm[2] = t0i - t2i;
          bufRe[3] = t1r - t3r;
          bufIm[3] = t1i - t3i;
          bufRe[1] = y1r;
          bufIm[1] = y1i;
          for (let u = 0; u < 4; u++) {
            const c = twCos[p * 4 + u]!;
            const d = twSin[p * 4 + u]!;
            const o = q + s * (4 * p + u);
            yRe[o] = bufRe[u]! * c - bufIm[u]! * d;
            yIm[o] = bufRe[u]! * d + bufIm[u]! * c;
          }
          continue;
        }
        for (let u = 0; u < r; u++) {
          let sumRe = 0;
          let sumIm = 0;
          for (let t = 0; t < r; t++) {
            const c = dftCos[t * r + u]!;
            const d = dftSin[t * r + u]!;
            sumRe += bufRe[t]! * c - bufIm[t]! * d;
            sumIm += bufRe[t]! * d + bufIm[t]! * c;
          }
          const c = twCos[p * r + u]!;
          const d = twSin[p * r + u]!;
          const o = q + s * (r * p + u);
          yRe[o] = sumRe * c - sumIm * d;
          yIm[o] = sumRe * d + sumIm * c;
        }
      }
    }
    [xRe, yRe] = [yRe, xRe];
    [xIm, yIm] = [yIm, xIm];
    s *= r;
  }
  if (xRe !== re) {
    re.set(xRe);
    im.set(xIm);
  }
}
