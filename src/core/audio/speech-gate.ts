import type { Seconds } from '../units';
import type { TimeSpan } from './speech-regions';

/**
 * What made a stretch worth recognising: VAD heard a voice in it, or it is loud (above its own
 * background) where VAD heard none. Recognition keeps what it decodes from a `level` stretch
 * only when its decoding rules are sure of it (`transcribe-channel.ts`).
 */
export type SpeechEvidence = 'voice' | 'level';

export interface GatedRegion extends TimeSpan {
  /** Absent: heard as a voice (regions from VAD alone). */
  heard?: SpeechEvidence;
}

/** Parts of `spans` outside every span of `cut` (both sorted, each non-overlapping). */
function subtract(spans: readonly TimeSpan[], cut: readonly TimeSpan[]): TimeSpan[] {
  const out: TimeSpan[] = [];
  let j = 0;
  for (const span of spans) {
    let start = span.start;
    while (j < cut.length && cut[j]!.end <= start) j++;
    for (let k = j; k < cut.length && cut[k]!.start < span.end; k++) {
      if (cut[k]!.start > start) out.push({ start, end: cut[k]!.start });
      start = Math.max(start, cut[k]!.end);
    }
    if (span.end > start) out.push({ start, end: span.end });
  }
  return out;
}

/**
 * A loud piece shorter than this that touches VAD's speech is the edge of that speech (a
 * breath, a word's tail that VAD's padding left out), recognised with it already.
 */
export const SPEECH_EDGE_SECONDS: Seconds = 1;

/**
 * A loud stretch at least this long in which VAD heard a voice for less than
 * `SCATTERED_VOICE_SHARE` of its time is judged as a whole by the recogniser: VAD's scattered
 * hits inside it are the kind it makes on music (Silero passed 0.5 for a second at a time on
 * generated beds with a lead melody, and the test recogniser wrote words there), not the
 * speech of a talk, which VAD hears for most of its loud time.
 */
export const SCATTERED_VOICE_MIN_SECONDS: Seconds = 8;
export const SCATTERED_VOICE_SHARE = 1 / 3;

/**
 * The stretches to recognise, in time order and non-overlapping: VAD's speech, and the loud
 * stretches outside it (less the edges of VAD's speech). VAD's speech scattered thinly through
 * a long loud stretch counts as heard by level, as the rest of that stretch does.
 */
export function gateRegions(
  heardVoice: readonly TimeSpan[],
  loud: readonly TimeSpan[],
): GatedRegion[] {
  const scattered = loud.filter(
    (l) =>
      l.end - l.start >= SCATTERED_VOICE_MIN_SECONDS &&
      overlap(l, heardVoice) < SCATTERED_VOICE_SHARE * (l.end - l.start),
  );
  // VAD's regions inside such a stretch are left to the loud stretch (which covers them).
  const voice = heardVoice.filter(
    (v) => !scattered.some((l) => overlap(v, [l]) > (v.end - v.start) / 2),
  );
  const touches = (piece: TimeSpan) =>
    voice.some((v) => v.start <= piece.end + 1e-6 && piece.start <= v.end + 1e-6);
  const level = subtract(loud, voice).filter(
    (piece) => piece.end - piece.start >= SPEECH_EDGE_SECONDS || !touches(piece),
  );
  const all: GatedRegion[] = [
    ...voice.map((v) => ({ start: v.start, end: v.end, heard: 'voice' as const })),
    ...level.map((l) => ({ ...l, heard: 'level' as const })),
  ];
  return all.sort((a, b) => a.start - b.start);
}

/** Seconds of `span` that `spans` cover (they do not overlap each other). */
function overlap(span: TimeSpan, spans: readonly TimeSpan[]): Seconds {
  let covered = 0;
  for (const s of spans) {
    covered += Math.max(0, Math.min(span.end, s.end) - Math.max(span.start, s.start));
  }
  return covered;
}

/** Seconds of `span` that regions heard as a voice cover. */
export function voicedSeconds(span: TimeSpan, regions: readonly GatedRegion[]): Seconds {
  let covered = 0;
  for (const r of regions) {
    if (r.heard === 'level') continue;
    covered += Math.max(0, Math.min(span.end, r.end) - Math.max(span.start, r.start));
  }
  return covered;
}

/**
 * Whether a stretch (a segment) was heard by level alone: less than half of it lies in VAD's
 * speech.
 */
export function heardByLevelOnly(span: TimeSpan, regions: readonly GatedRegion[]): boolean {
  return voicedSeconds(span, regions) < 0.5 * Math.max(0, span.end - span.start);
}
