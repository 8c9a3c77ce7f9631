/**
 * Diarization error rate, scored as NIST's md-eval and pyannote.metrics score it: the timeline
 * is cut wherever any turn starts or ends, and in each piece the reference and hypothesis
 * speakers are counted. Speech two people speak at once counts once per speaker, so the total
 * is speaker time, not clock time. Hypothesis labels are arbitrary, so they are first mapped
 * one-to-one onto reference speakers, choosing the mapping under which they share the most
 * time (the Hungarian method), and a piece's speaker counts as right only under that mapping.
 */
import type { Seconds } from '../units';
import { bestAssignment } from './assignment';
import type { SpeakerTurn } from './rttm';

export interface TimeSpan {
  start: Seconds;
  end: Seconds;
}

export interface DiarizationErrorOptions {
  /**
   * Seconds either side of every reference turn's start and end that are not scored, for
   * reference and hypothesis alike (md-eval's `-c`; pyannote's `collar` is the whole width,
   * twice this). Where people hand-mark turns their boundaries are only this precise.
   */
  collar?: Seconds;
  /**
   * The stretches scored (a UEM file's lines for the file); by default from the first turn's
   * start to the last turn's end.
   */
  uem?: TimeSpan | readonly TimeSpan[];
}

export interface DiarizationError {
  /** (missed + falseAlarm + confusion) / total; 0 when nothing is scored and nothing is wrong. */
  der: number;
  /** Reference speaker time with fewer hypothesis speakers than reference speakers, seconds. */
  missed: Seconds;
  /** Hypothesis speaker time beyond the reference speakers present, seconds. */
  falseAlarm: Seconds;
  /** Speaker time given to the wrong (unmapped) hypothesis speaker, seconds. */
  confusion: Seconds;
  /** Scored reference speaker time, seconds. */
  total: Seconds;
  missedRate: number;
  falseAlarmRate: number;
  confusionRate: number;
  /** Reference speaker -> the hypothesis speaker it was mapped to. */
  mapping: Map<string, string>;
}

/** Sorted, disjoint spans covering what `spans` cover. */
function union(spans: readonly TimeSpan[]): TimeSpan[] {
  const sorted = spans.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start);
  const out: TimeSpan[] = [];
  for (const span of sorted) {
    const last = out[out.length - 1];
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else out.push({ ...span });
  }
  return out;
}

/** `whole` less the sorted, disjoint `holes`. */
function subtract(whole: TimeSpan, holes: readonly TimeSpan[]): TimeSpan[] {
  const out: TimeSpan[] = [];
  let at = whole.start;
  for (const hole of holes) {
    if (hole.end <= at) continue;
    if (hole.start >= whole.end) break;
    if (hole.start > at) out.push({ start: at, end: hole.start });
    at = Math.max(at, hole.end);
  }
  if (at < whole.end) out.push({ start: at, end: whole.end });
  return out;
}

/** The parts of each turn inside the scored spans. */
function clip(turns: readonly SpeakerTurn[], scored: readonly TimeSpan[]): SpeakerTurn[] {
  const out: SpeakerTurn[] = [];
  for (const turn of turns) {
    for (const span of scored) {
      const start = Math.max(turn.start, span.start);
      const end = Math.min(turn.end, span.end);
      if (end > start) out.push({ speaker: turn.speaker, start, end });
    }
  }
  return out;
}

interface Piece {
  duration: Seconds;
  reference: Set<string>;
  hypothesis: Set<string>;
}

/** The timeline cut at every boundary, each piece with the speakers active all through it. */
function pieces(reference: readonly SpeakerTurn[], hypothesis: readonly SpeakerTurn[]): Piece[] {
  const cuts = [...new Set([...reference, ...hypothesis].flatMap((t) => [t.start, t.end]))].sort(
    (a, b) => a - b,
  );
  const active = (turns: readonly SpeakerTurn[], start: number, end: number) =>
    new Set(turns.filter((t) => t.start <= start && t.end >= end).map((t) => t.speaker));
  const out: Piece[] = [];
  for (let i = 0; i + 1 < cuts.length; i++) {
    const start = cuts[i]!;
    const end = cuts[i + 1]!;
    const ref = active(reference, start, end);
    const hyp = active(hypothesis, start, end);
    if (ref.size > 0 || hyp.size > 0) {
      out.push({ duration: end - start, reference: ref, hypothesis: hyp });
    }
  }
  return out;
}

/** The mapping of reference speakers onto hypothesis speakers under which they share the most time. */
function speakerMapping(all: readonly Piece[]): Map<string, string> {
  const refs = [...new Set(all.flatMap((p) => [...p.reference]))];
  const hyps = [...new Set(all.flatMap((p) => [...p.hypothesis]))];
  const shared = refs.map(() => hyps.map(() => 0));
  for (const piece of all) {
    for (const r of piece.reference) {
      for (const h of piece.hypothesis)
        shared[refs.indexOf(r)]![hyps.indexOf(h)]! += piece.duration;
    }
  }
  const mapping = new Map<string, string>();
  for (const [r, h] of bestAssignment(shared)) {
    // A pair that never speaks together changes no score; leaving it out keeps the map honest.
    if (shared[r]![h]! > 0) mapping.set(refs[r]!, hyps[h]!);
  }
  return mapping;
}

/** The scored spans: the UEM less the collars around every reference boundary. */
function scoredSpans(
  reference: readonly SpeakerTurn[],
  hypothesis: readonly SpeakerTurn[],
  options: DiarizationErrorOptions,
): TimeSpan[] {
  const collar = options.collar ?? 0;
  if (collar < 0) throw new RangeError(`diarizationError: collar ${collar} is negative`);
  const everything = [...reference, ...hypothesis];
  if (everything.length === 0) return [];
  const given = options.uem;
  const uem =
    given === undefined
      ? [
          {
            start: Math.min(...everything.map((t) => t.start)),
            end: Math.max(...everything.map((t) => t.end)),
          },
        ]
      : union('start' in given ? [given] : given);
  if (collar === 0) return uem;
  const collars = union(
    reference.flatMap((t) => [
      { start: t.start - collar, end: t.start + collar },
      { start: t.end - collar, end: t.end + collar },
    ]),
  );
  return uem.flatMap((span) => subtract(span, collars));
}

/**
 * How far `hypothesis` is from `reference`, in seconds of speaker time and as shares of the
 * scored reference speaker time. Each piece of the timeline with Nref reference and Nhyp
 * hypothesis speakers adds, times its length: missed max(0, Nref - Nhyp), false alarm
 * max(0, Nhyp - Nref), confusion min(Nref, Nhyp) - Ncorrect, where Ncorrect counts reference
 * speakers whose mapped hypothesis speaker is also speaking.
 */
export function diarizationError(
  reference: readonly SpeakerTurn[],
  hypothesis: readonly SpeakerTurn[],
  options: DiarizationErrorOptions = {},
): DiarizationError {
  const scored = scoredSpans(reference, hypothesis, options);
  const all = pieces(clip(reference, scored), clip(hypothesis, scored));
  const mapping = speakerMapping(all);
  let missed = 0;
  let falseAlarm = 0;
  let confusion = 0;
  let total = 0;
  for (const piece of all) {
    const nRef = piece.reference.size;
    const nHyp = piece.hypothesis.size;
    let correct = 0;
    for (const r of piece.reference) {
      const h = mapping.get(r);
      if (h !== undefined && piece.hypothesis.has(h)) correct++;
    }
    total += nRef * piece.duration;
    missed += Math.max(0, nRef - nHyp) * piece.duration;
    falseAlarm += Math.max(0, nHyp - nRef) * piece.duration;
    confusion += (Math.min(nRef, nHyp) - correct) * piece.duration;
  }
  const errors = missed + falseAlarm + confusion;
  // With no reference speech any hypothesis speech is infinitely wrong; none at all is right.
  const rate = (part: number) => (total > 0 ? part / total : part > 0 ? Infinity : 0);
  return {
    der: rate(errors),
    missed,
    falseAlarm,
    confusion,
    total,
    missedRate: rate(missed),
    falseAlarmRate: rate(falseAlarm),
    confusionRate: rate(confusion),
    mapping,
  };
}
