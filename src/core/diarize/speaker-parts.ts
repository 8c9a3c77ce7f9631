/**
 * A local speaker taken apart where it falls silent. The segmentation model sometimes gives one
 * local speaker to two people who take turns within its window (a small model does so often
 * with voices it never heard); the local speaker's one embedding then stands for whichever of
 * them spoke longest, and the other person's turn goes to the wrong speaker, however well the
 * embeddings tell the two apart. Each stretch between pauses gets an embedding of its own, and
 * where the stretches lie nearest different speakers, those of the other speaker are moved to
 * a local speaker the window leaves silent.
 */
import { similarity, normalise } from './clustering';
import { LOCAL_SPEAKERS, type FrameRun } from './local-speakers';

/** Runs of one stretch of a local speaker: where it speaks, and where it speaks alone. */
export interface SpeakerPart {
  active: FrameRun[];
  alone: FrameRun[];
}

/** A local speaker's runs, grouped into stretches wherever it is silent for `gapFrames` or more. */
export function speakerParts(
  frames: { active: readonly FrameRun[]; alone: readonly FrameRun[] },
  gapFrames: number,
): SpeakerPart[] {
  const parts: SpeakerPart[] = [];
  let last = -Infinity;
  for (const run of frames.active) {
    if (run[0] - last >= gapFrames) parts.push({ active: [], alone: [] });
    parts.at(-1)!.active.push(run);
    last = run[1];
  }
  for (const run of frames.alone) {
    const part = parts.find((p) => p.active.some(([a, b]) => a <= run[0] && run[1] <= b));
    part?.alone.push(run);
  }
  return parts;
}

/** The parts of one local speaker of a window, with an embedding for each that had enough audio. */
export interface LocalSpeakerParts {
  speaker: number;
  parts: readonly SpeakerPart[];
  embeddings: readonly (Float32Array | null)[];
}

/**
 * Moves the stretches of a local speaker that lie nearest another speaker to a silent local
 * speaker of the window, and gives both their own embeddings (each the mean of its stretches').
 * The speaker keeps the stretches nearest the speaker that most of its frames lie nearest; of
 * the others, those of the speaker with most frames move (there is one silent local speaker at
 * most in a window where two people speak). `active` and `embeddings` are the window's, changed
 * in place. Returns whether anything moved.
 */
export function splitLocalSpeaker(
  window: { frames: number; active: Uint8Array; embeddings: (Float32Array | null)[] },
  local: LocalSpeakerParts,
  centroids: readonly Float32Array[],
  allowed: readonly boolean[],
): boolean {
  const candidates = centroids.flatMap((_, c) => (allowed[c] ? [c] : []));
  if (candidates.length < 2) return false;
  const nearestOf = local.embeddings.map((e) =>
    e === null
      ? -1
      : candidates.reduce((b, c) =>
          similarity(e, centroids[c]!) > similarity(e, centroids[b]!) ? c : b,
        ),
  );
  const framesOf = new Map<number, number>();
  local.parts.forEach((part, k) => {
    const c = nearestOf[k]!;
    if (c < 0) return;
    const n = part.active.reduce((sum, [a, b]) => sum + b - a, 0);
    framesOf.set(c, (framesOf.get(c) ?? 0) + n);
  });
  if (framesOf.size < 2) return false;
  const [keep, move] = [...framesOf.entries()].sort((x, y) => y[1] - x[1]).map(([c]) => c);
  const free = freeLocalSpeaker(window.active, window.frames);
  if (free < 0) return false;
  const mean = (cluster: number) => {
    const picked = local.embeddings.filter((e, k) => e !== null && nearestOf[k] === cluster);
    const sum = new Float32Array(picked[0]!.length);
    for (const e of picked) for (let d = 0; d < sum.length; d++) sum[d]! += e![d]!;
    return normalise(sum);
  };
  local.parts.forEach((part, k) => {
    if (nearestOf[k] !== move) return;
    for (const [a, b] of part.active) {
      for (let f = a; f < b; f++) {
        window.active[f * LOCAL_SPEAKERS + local.speaker] = 0;
        window.active[f * LOCAL_SPEAKERS + free] = 1;
      }
    }
  });
  window.embeddings[local.speaker] = mean(keep!);
  window.embeddings[free] = mean(move!);
  return true;
}

/** A local speaker silent in every frame of the window, or -1. */
export function freeLocalSpeaker(active: Uint8Array, frames: number): number {
  for (let s = 0; s < LOCAL_SPEAKERS; s++) {
    let silent = true;
    for (let f = 0; f < frames && silent; f++)
      if (active[f * LOCAL_SPEAKERS + s] === 1) silent = false;
    if (silent) return s;
  }
  return -1;
}
