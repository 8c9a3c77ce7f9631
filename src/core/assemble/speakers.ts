import type { Seconds } from '../units';

export interface SpeakerTurn {
  speaker: string;
  channel: number;
  start: Seconds;
  end: Seconds;
}

function overlap(aStart: number, aEnd: number, bStart: number, bEnd: number): number {
  return Math.max(0, Math.min(aEnd, bEnd) - Math.max(aStart, bStart));
}

function gap(aStart: number, aEnd: number, bStart: number, bEnd: number): number {
  return Math.max(0, bStart - aEnd, aStart - bEnd);
}

/**
 * The speaker of a span: the one whose turns on that channel overlap it most; when none
 * overlaps (a segment in a pause between turns), the nearest turn's speaker. Null when the
 * channel has no turns at all.
 */
export function speakerOf(
  turns: readonly SpeakerTurn[],
  channel: number,
  start: Seconds,
  end: Seconds,
): string | null {
  const onChannel = turns.filter((t) => t.channel === channel);
  if (onChannel.length === 0) return null;
  const totals = new Map<string, number>();
  for (const t of onChannel) {
    const o = overlap(start, end, t.start, t.end);
    if (o > 0) totals.set(t.speaker, (totals.get(t.speaker) ?? 0) + o);
  }
  if (totals.size > 0) {
    return [...totals.entries()].reduce((best, e) => (e[1] > best[1] ? e : best))[0];
  }
  return onChannel.reduce((best, t) =>
    gap(start, end, t.start, t.end) < gap(start, end, best.start, best.end) ? t : best,
  ).speaker;
}
