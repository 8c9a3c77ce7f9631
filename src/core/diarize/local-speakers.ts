/**
 * What the segmentation model says of one window: which of its (up to three) local speakers
 * speak in each frame. The model scores each frame over the powerset of local speakers
 * (nobody, each alone, each pair); the likeliest set is taken, as pyannote's pipeline does.
 */

/** The sets of local speakers, in the order of the model's classes. */
export const POWERSET: readonly (readonly number[])[] = [[], [0], [1], [2], [0, 1], [0, 2], [1, 2]];
export const LOCAL_SPEAKERS = 3;

/**
 * Frame-by-speaker activity (0 or 1), `frames * LOCAL_SPEAKERS`, from the logits of one window
 * (`frames * classes`, any monotone scale: raw logits or log-probabilities).
 */
export function localActivity(logits: Float32Array, frames: number, classes: number): Uint8Array {
  const active = new Uint8Array(frames * LOCAL_SPEAKERS);
  for (let f = 0; f < frames; f++) {
    let best = 0;
    for (let c = 1; c < classes; c++) {
      if (logits[f * classes + c]! > logits[f * classes + best]!) best = c;
    }
    for (const speaker of POWERSET[best] ?? []) active[f * LOCAL_SPEAKERS + speaker] = 1;
  }
  return active;
}

/** Frames (from, to exclusive) in runs, of one local speaker. */
export type FrameRun = [number, number];

function runs(frames: number, on: (f: number) => boolean): FrameRun[] {
  const out: FrameRun[] = [];
  let from = -1;
  for (let f = 0; f <= frames; f++) {
    const is = f < frames && on(f);
    if (is && from < 0) from = f;
    if (!is && from >= 0) {
      out.push([from, f]);
      from = -1;
    }
  }
  return out;
}

/** Frames in which a local speaker speaks at all, and in which it speaks alone. */
export function speakerFrames(
  active: Uint8Array,
  frames: number,
  speaker: number,
): { active: FrameRun[]; alone: FrameRun[]; activeCount: number } {
  const at = (f: number, s: number) => active[f * LOCAL_SPEAKERS + s] === 1;
  const alone = (f: number) => {
    if (!at(f, speaker)) return false;
    for (let s = 0; s < LOCAL_SPEAKERS; s++) if (s !== speaker && at(f, s)) return false;
    return true;
  };
  let activeCount = 0;
  for (let f = 0; f < frames; f++) if (at(f, speaker)) activeCount++;
  return { active: runs(frames, (f) => at(f, speaker)), alone: runs(frames, alone), activeCount };
}

/**
 * The frames whose audio stands for a speaker in an embedding: where it speaks alone (another
 * voice would blur it), the longest stretches first up to `maxFrames`; where it is alone for
 * fewer than `minFrames`, everywhere it speaks. Null when even that is too short.
 */
export function embeddingFrames(
  frames: { active: FrameRun[]; alone: FrameRun[] },
  minFrames: number,
  maxFrames: number,
): FrameRun[] | null {
  const length = (rs: FrameRun[]) => rs.reduce((n, [a, b]) => n + b - a, 0);
  let chosen = length(frames.alone) >= minFrames ? frames.alone : frames.active;
  if (length(chosen) < minFrames) return null;
  chosen = [...chosen].sort((x, y) => y[1] - y[0] - (x[1] - x[0]));
  const out: FrameRun[] = [];
  let left = maxFrames;
  for (const [a, b] of chosen) {
    if (left <= 0) break;
    const take = Math.min(b - a, left);
    // Of a long stretch, its middle: the edges are where a change of speaker may be blurred.
    const from = a + Math.floor((b - a - take) / 2);
    out.push([from, from + take]);
    left -= take;
  }
  return out.sort((x, y) => x[0] - y[0]);
}

/**
 * The samples of a window that runs of frames see, joined: frame `f` sees `span` samples from
 * `f * step`.
 */
export function framesAudio(
  window: Float32Array,
  runs: readonly FrameRun[],
  step: number,
  span: number,
): Float32Array {
  const parts = runs.map(([from, to]) => window.subarray(from * step, (to - 1) * step + span));
  const joined = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}
