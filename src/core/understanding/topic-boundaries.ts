import { cosine, termCounts } from './terms';

/** A stretch of transcript that a chapter boundary may follow. */
export interface TopicUnit {
  terms: readonly string[];
  time_begin: number;
  time_end: number;
  /** Whether a boundary may come after this unit (it ends a sentence, a turn or at a pause). */
  mayEndChapter: boolean;
}

export interface BoundarySettings {
  /** Topic terms compared on each side of a gap. */
  blockTerms: number;
  /** Fewest seconds of a chapter. */
  minChapterSeconds: number;
  /** How deep, at least, a dip in cohesion must be to start a chapter. */
  minDepth: number;
  /** Standard deviations above the mean depth of all gaps that a boundary's depth must reach. */
  depthCutoff: number;
}

/** The terms of the units from `from` going `step` (±1) until `size` terms are gathered. */
function block(units: readonly TopicUnit[], from: number, step: 1 | -1, size: number) {
  const terms: string[] = [];
  for (let i = from; i >= 0 && i < units.length && terms.length < size; i += step) {
    terms.push(...units[i]!.terms);
  }
  return termCounts(terms);
}

/**
 * How alike the words on the two sides of each gap are (the gap after unit i): TextTiling's
 * block comparison, smoothed over neighbouring gaps.
 */
export function rawCohesion(units: readonly TopicUnit[], blockTerms: number): number[] {
  const raw: number[] = [];
  for (let g = 0; g < units.length - 1; g++) {
    raw.push(cosine(block(units, g, -1, blockTerms), block(units, g + 1, 1, blockTerms)));
  }
  return raw;
}

/** `rawCohesion` smoothed over neighbouring gaps, so that one odd sentence makes no valley. */
export function smoothed(raw: readonly number[]): number[] {
  return raw.map((s, g) => {
    const near = raw.slice(Math.max(0, g - 1), g + 2);
    return near.reduce((a, b) => a + b, 0) / near.length;
  });
}

/**
 * How deep each gap lies in a valley of cohesion: the climb to the highest point on its left
 * and on its right, each taken while the scores keep rising.
 */
export function gapDepths(cohesion: readonly number[]): number[] {
  return cohesion.map((s, g) => {
    let left = s;
    for (let i = g - 1; i >= 0 && cohesion[i]! >= left; i--) left = cohesion[i]!;
    let right = s;
    for (let i = g + 1; i < cohesion.length && cohesion[i]! >= right; i++) right = cohesion[i]!;
    return left - s + (right - s);
  });
}

/**
 * Where the topic changes: the units after which a chapter ends, in order. Deepest valleys
 * first, each kept only where it may end a chapter and leaves every chapter at least
 * `minChapterSeconds` long.
 */
export function topicBoundaries(units: readonly TopicUnit[], settings: BoundarySettings): number[] {
  if (units.length < 2) return [];
  const raw = rawCohesion(units, settings.blockTerms);
  const depths = gapDepths(smoothed(raw));
  const allowed = depths
    .map((depth, gap) => ({ depth, gap }))
    .filter(({ gap }) => units[gap]!.mayEndChapter);
  if (allowed.length === 0) return [];
  const mean = allowed.reduce((s, a) => s + a.depth, 0) / allowed.length;
  const sd = Math.sqrt(allowed.reduce((s, a) => s + (a.depth - mean) ** 2, 0) / allowed.length);
  const cutoff = Math.max(settings.minDepth, mean + settings.depthCutoff * sd);
  const start = units[0]!.time_begin;
  const end = units[units.length - 1]!.time_end;
  const chosen: number[] = [];
  const fits = (gap: number) => {
    const edges = [...chosen, gap].sort((a, b) => a - b);
    let begin = start;
    for (const g of edges) {
      if (units[g]!.time_end - begin < settings.minChapterSeconds) return false;
      begin = units[g + 1]!.time_begin;
    }
    return end - begin >= settings.minChapterSeconds;
  };
  for (const { gap } of allowed
    .filter((a) => a.depth >= cutoff)
    .sort((a, b) => b.depth - a.depth || a.gap - b.gap)) {
    // Smoothing moves a valley by a gap or so: the boundary goes to the least cohesive gap
    // beside it that may end a chapter.
    const sharpest = [gap - 1, gap, gap + 1]
      .filter((g) => g >= 0 && g < raw.length && units[g]!.mayEndChapter)
      .sort((a, b) => raw[a]! - raw[b]! || Math.abs(a - gap) - Math.abs(b - gap))[0]!;
    if (!chosen.includes(sharpest) && fits(sharpest)) chosen.push(sharpest);
    else if (!chosen.includes(gap) && fits(gap)) chosen.push(gap);
  }
  return chosen.sort((a, b) => a - b);
}
