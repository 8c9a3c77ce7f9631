/**
 * Which speaker of a fresh run over a recording is the one a saved result calls `label`: the
 * speaker whose time overlaps most with that label's time. Labels are matched by time, not by
 * name, so that a result whose speakers were renamed, or numbered in another order, still
 * finds its speaker.
 */

/** A stretch of one speaker's time (seconds), as a result's `speaker_mapping` has it. */
export interface SpeakerStretch {
  speaker: string;
  start: number;
  end: number;
}

/** Why a saved result cannot name a speaker to remember, in one sentence (the host names the file). */
export class EnrolmentError extends Error {
  override name = 'EnrolmentError';
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A saved result's speakers' time: its `speaker_mapping`. A result made without diarization (no
 * mapping, or nothing but `speaker_not_activated`) is refused: it names no speaker.
 */
export function resultStretches(result: unknown): SpeakerStretch[] {
  const raw = isRecord(result) ? result.prediction_raw : undefined;
  if (!isRecord(raw) || !Array.isArray(raw.transcription))
    throw new EnrolmentError(
      'is not a transcription result: it has no prediction_raw.transcription.',
    );
  const mapping = Array.isArray(raw.speaker_mapping) ? raw.speaker_mapping : [];
  const stretches = mapping.flatMap((span: unknown): SpeakerStretch[] => {
    if (!isRecord(span)) return [];
    const { speaker, time_begin: start, time_end: end } = span;
    if (typeof speaker !== 'string' || typeof start !== 'number' || typeof end !== 'number')
      return [];
    return end > start ? [{ speaker, start, end }] : [];
  });
  if (stretches.length === 0)
    throw new EnrolmentError(
      'names no speakers: it was made without telling speakers apart (--toggle_diarization true).',
    );
  return stretches;
}

/** `label`'s stretches in a saved result; an `EnrolmentError` naming its speakers when none. */
export function stretchesOf(saved: readonly SpeakerStretch[], label: string): SpeakerStretch[] {
  const mine = saved.filter((s) => s.speaker === label);
  if (mine.length === 0) {
    const labels = [...new Set(saved.map((s) => s.speaker))];
    throw new EnrolmentError(
      `has no speaker "${label}"; its speakers are ${labels.map((l) => `"${l}"`).join(', ')}.`,
    );
  }
  return mine;
}

function overlap(a: SpeakerStretch, b: SpeakerStretch): number {
  return Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));
}

/**
 * The speaker of `found` (a fresh run's stretches) that is `label` of `saved`: the one sharing
 * most seconds with it. Throws an `EnrolmentError` when `saved` has no such label, or when no
 * speaker of the fresh run speaks during its time (the result belongs to another recording).
 */
export function matchingSpeaker(
  saved: readonly SpeakerStretch[],
  label: string,
  found: readonly SpeakerStretch[],
): string {
  const mine = stretchesOf(saved, label);
  const shared = new Map<string, number>();
  for (const s of mine)
    for (const f of found) {
      const seconds = overlap(s, f);
      if (seconds > 0) shared.set(f.speaker, (shared.get(f.speaker) ?? 0) + seconds);
    }
  let best: string | null = null;
  let most = 0;
  for (const [speaker, seconds] of shared)
    if (seconds > most) {
      best = speaker;
      most = seconds;
    }
  if (best === null)
    throw new EnrolmentError(
      `says "${label}" speaks where nobody is heard in the media: is it the result of this media?`,
    );
  return best;
}
