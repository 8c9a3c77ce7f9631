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

/** A segment as recognised, with the speaker the turns give it. */
export interface SpokenSegment {
  text: string;
  start: Seconds;
  end: Seconds;
  channel: number;
  words: { text: string; start: Seconds; end: Seconds }[];
}

/**
 * A run of words shorter than this (and of one word) is not taken for a change of speaker:
 * the turns' edges are only as sharp as the segmentation's frames and the word times, and a
 * word at a turn's edge often overlaps the neighbour's turn.
 */
const SHORTEST_RUN_SECONDS = 0.5;

/**
 * Each segment with its speaker: the one who speaks most of it, and a segment that spans a
 * change of speaker split at the word where the speaker changes. A channel without any turn
 * (the speaker model heard nobody there) is one speaker of its own, `channel_<index>`.
 */
export function attributeSpeakers<S extends SpokenSegment>(
  segments: readonly S[],
  turns: readonly SpeakerTurn[],
): (S & { speaker: string })[] {
  const out: (S & { speaker: string })[] = [];
  for (const segment of segments) {
    const whole = speakerOf(turns, segment.channel, segment.start, segment.end);
    if (whole === null) {
      out.push({ ...segment, speaker: `channel_${segment.channel}` });
      continue;
    }
    const words = segment.words;
    if (words.length < 2) {
      out.push({ ...segment, speaker: whole });
      continue;
    }
    const runs: { speaker: string; from: number; to: number }[] = [];
    words.forEach((w, i) => {
      const speaker = speakerOf(turns, segment.channel, w.start, w.end) ?? whole;
      const last = runs.at(-1);
      if (last && last.speaker === speaker) last.to = i + 1;
      else runs.push({ speaker, from: i, to: i + 1 });
    });
    // Short runs join the run before them (the first joins the next).
    for (let i = 0; i < runs.length && runs.length > 1;) {
      const r = runs[i]!;
      const seconds = words[r.to - 1]!.end - words[r.from]!.start;
      if (r.to - r.from > 1 || seconds >= SHORTEST_RUN_SECONDS) {
        i++;
        continue;
      }
      const into = i > 0 ? runs[i - 1]! : runs[i + 1]!;
      into.from = Math.min(into.from, r.from);
      into.to = Math.max(into.to, r.to);
      runs.splice(i, 1);
      // Neighbours of one speaker that now touch become one run.
      for (let j = 1; j < runs.length; j++) {
        if (runs[j]!.speaker === runs[j - 1]!.speaker) {
          runs[j - 1]!.to = runs[j]!.to;
          runs.splice(j, 1);
          j--;
        }
      }
      i = Math.max(0, i - 1);
    }
    if (runs.length === 1) {
      out.push({ ...segment, speaker: runs[0]!.speaker });
      continue;
    }
    runs.forEach((r, i) => {
      const part = words.slice(r.from, r.to);
      out.push({
        ...segment,
        text: part.map((w) => w.text).join(''),
        start: i === 0 ? segment.start : part[0]!.start,
        end: i === runs.length - 1 ? segment.end : part.at(-1)!.end,
        words: part,
        speaker: r.speaker,
      });
    });
  }
  return out;
}

/**
 * Labels `speaker_0`, `speaker_1`, ... in order of first appearance in the transcript (then,
 * for speakers heard but given no words, in order of their first turn). Returns the label of
 * each speaker id.
 */
export function speakerLabels(
  segments: readonly { speaker: string; start: Seconds; channel: number }[],
  turns: readonly SpeakerTurn[],
): Map<string, string> {
  const labels = new Map<string, string>();
  const add = (id: string) => {
    if (!labels.has(id)) labels.set(id, `speaker_${labels.size}`);
  };
  [...segments]
    .sort((a, b) => a.start - b.start || a.channel - b.channel)
    .forEach((s) => add(s.speaker));
  [...turns].sort((a, b) => a.start - b.start).forEach((t) => add(t.speaker));
  return labels;
}
