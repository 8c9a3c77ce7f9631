/**
 * Decoding a long file window by window means seeking, and a seek in a compressed stream can
 * land a few milliseconds (an encoder delay, a frame) away from where it was asked to. Each
 * window is therefore decoded with some lead-in that overlaps what is already decoded, and the
 * lead-in is matched against it to find where the window really starts.
 */
export interface Alignment {
  /** Samples by which the probe sits later than its nominal place (negative: earlier). */
  lag: number;
  /** Normalised correlation at that lag; 0 when the audio there is too quiet to tell. */
  correlation: number;
}

/**
 * Finds where `probe` best matches inside `reference`, which must be `probe.length + 2 *
 * maxLag` samples long with the probe's nominal place at offset `maxLag`.
 */
export function alignWindow(
  reference: Float32Array,
  probe: Float32Array,
  maxLag: number,
): Alignment {
  if (reference.length !== probe.length + 2 * maxLag) {
    throw new RangeError('reference must be probe.length + 2 * maxLag samples long.');
  }
  let probeEnergy = 0;
  for (const s of probe) probeEnergy += s * s;
  // Near digital silence every lag fits equally well; the nominal place is as good as any.
  if (probeEnergy / Math.max(1, probe.length) < 1e-8) return { lag: 0, correlation: 0 };
  let windowEnergy = 0;
  for (let i = 0; i < probe.length; i++) windowEnergy += reference[i]! ** 2;
  let best = -Infinity;
  let bestOffset = maxLag;
  for (let offset = 0; offset <= 2 * maxLag; offset++) {
    if (offset > 0) {
      windowEnergy += reference[offset + probe.length - 1]! ** 2 - reference[offset - 1]! ** 2;
    }
    let dot = 0;
    for (let i = 0; i < probe.length; i++) dot += probe[i]! * reference[offset + i]!;
    const c = dot / Math.sqrt(probeEnergy * Math.max(windowEnergy, 1e-12));
    if (c > best || (c === best && Math.abs(offset - maxLag) < Math.abs(bestOffset - maxLag))) {
      best = c;
      bestOffset = offset;
    }
  }
  return { lag: bestOffset - maxLag, correlation: best };
}
