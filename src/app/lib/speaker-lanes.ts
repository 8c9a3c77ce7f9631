import { SPEAKER_NOT_ACTIVATED, type SpeakerSpan } from '../../core/contract/response';

/** A stretch of time one speaker holds, in seconds. */
export interface SpeakerBlock {
  begin: number;
  end: number;
}

/** One row of the speaker timeline: a speaker and the stretches they speak. */
export interface SpeakerLane {
  speaker: string;
  blocks: SpeakerBlock[];
  /** Seconds spoken, for the lane's label. */
  seconds: number;
}

/**
 * Spans of one speaker closer than this are drawn as one block: a breath between two segments
 * of the same turn is not a change of speaker, and a row of slivers is hard to read and to hit.
 */
export const MERGE_GAP_SECONDS = 0.75;

/**
 * The timeline's lanes from the speaker mapping: one lane a speaker, in order of first
 * appearance, each with its spans sorted and merged where they touch, overlap or leave a gap
 * shorter than `mergeGap`. Spans without a speaker (diarization off) make no lane.
 */
export function speakerLanes(
  mapping: readonly SpeakerSpan[],
  mergeGap = MERGE_GAP_SECONDS,
): SpeakerLane[] {
  const bySpeaker = new Map<string, SpeakerBlock[]>();
  const ordered = [...mapping].sort((a, b) => a.time_begin - b.time_begin);
  for (const span of ordered) {
    if (span.speaker === SPEAKER_NOT_ACTIVATED) continue;
    const begin = Math.max(0, span.time_begin);
    const end = Math.max(begin, span.time_end);
    const blocks = bySpeaker.get(span.speaker) ?? [];
    const last = blocks.at(-1);
    if (last && begin - last.end <= mergeGap) last.end = Math.max(last.end, end);
    else blocks.push({ begin, end });
    bySpeaker.set(span.speaker, blocks);
  }
  return [...bySpeaker].map(([speaker, blocks]) => ({
    speaker,
    blocks,
    seconds: blocks.reduce((sum, b) => sum + (b.end - b.begin), 0),
  }));
}

/** How long the timeline spans: the media's duration, or the last speech when it is unknown. */
export function timelineDuration(lanes: readonly SpeakerLane[], mediaDuration: number): number {
  const lastEnd = Math.max(0, ...lanes.flatMap((l) => l.blocks.map((b) => b.end)));
  return Number.isFinite(mediaDuration) && mediaDuration > 0
    ? Math.max(mediaDuration, lastEnd)
    : lastEnd;
}

/** Where a time falls along the timeline, as a percentage of its width (0-100). */
export function timelinePercent(seconds: number, duration: number): number {
  if (!(duration > 0)) return 0;
  return Math.min(100, Math.max(0, (seconds / duration) * 100));
}
