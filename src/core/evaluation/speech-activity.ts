import type { Seconds } from '../units';
import type { TimeSpan } from '../audio/speech-regions';

/**
 * Speech activity detection scored against a reference (an RTTM's speaker turns), frame by
 * frame: missed speech is reference speech the hypothesis does not cover, a false alarm is
 * hypothesis speech where the reference has none. Both are given in seconds and as a share of
 * the reference speech (the convention of diarization error rates), with no forgiveness collar.
 */
export interface SpeechActivityScore {
  /** Seconds scored (the evaluation span). */
  scoredSeconds: Seconds;
  referenceSeconds: Seconds;
  hypothesisSeconds: Seconds;
  missedSeconds: Seconds;
  falseAlarmSeconds: Seconds;
  /** missed / reference speech, 0..1. */
  missedRate: number;
  /** false alarm / reference speech (can pass 1). */
  falseAlarmRate: number;
  /** 1 - missedRate: the share of reference speech found. */
  detectedRate: number;
}

/** Frames (of `frameSeconds`, counted from `scored.start`) whose centres lie inside `spans`. */
function frameMask(spans: readonly TimeSpan[], scored: TimeSpan, frameSeconds: number): Uint8Array {
  const frames = Math.max(0, Math.round((scored.end - scored.start) / frameSeconds));
  const mask = new Uint8Array(frames);
  for (const span of spans) {
    const from = Math.max(0, Math.ceil((span.start - scored.start) / frameSeconds - 0.5));
    const to = Math.min(frames, Math.ceil((span.end - scored.start) / frameSeconds - 0.5));
    mask.fill(1, from, Math.max(from, to));
  }
  return mask;
}

export function scoreSpeechActivity(
  reference: readonly TimeSpan[],
  hypothesis: readonly TimeSpan[],
  scored: TimeSpan,
  frameSeconds: Seconds = 0.01,
): SpeechActivityScore {
  if (!(frameSeconds > 0)) throw new RangeError('frameSeconds must be positive.');
  if (!(scored.end > scored.start)) throw new RangeError('The scored span must not be empty.');
  const ref = frameMask(reference, scored, frameSeconds);
  const hyp = frameMask(hypothesis, scored, frameSeconds);
  let refFrames = 0;
  let hypFrames = 0;
  let missed = 0;
  let falseAlarm = 0;
  for (let f = 0; f < ref.length; f++) {
    refFrames += ref[f]!;
    hypFrames += hyp[f]!;
    if (ref[f] && !hyp[f]) missed++;
    if (hyp[f] && !ref[f]) falseAlarm++;
  }
  const missedRate = refFrames > 0 ? missed / refFrames : 0;
  return {
    scoredSeconds: ref.length * frameSeconds,
    referenceSeconds: refFrames * frameSeconds,
    hypothesisSeconds: hypFrames * frameSeconds,
    missedSeconds: missed * frameSeconds,
    falseAlarmSeconds: falseAlarm * frameSeconds,
    missedRate,
    falseAlarmRate: refFrames > 0 ? falseAlarm / refFrames : falseAlarm > 0 ? Infinity : 0,
    detectedRate: 1 - missedRate,
  };
}

/**
 * The speech of one file in an RTTM text: every `SPEAKER` turn of `file`, overlaps merged, in
 * time order. Lines of other files and other types are skipped; a malformed turn is refused.
 */
export function rttmSpeech(rttm: string, file: string): TimeSpan[] {
  const turns: TimeSpan[] = [];
  rttm.split('\n').forEach((line, i) => {
    const fields = line.trim().split(/\s+/);
    if (fields[0] !== 'SPEAKER' || fields[1] !== file) return;
    const start = Number(fields[3]);
    const duration = Number(fields[4]);
    if (!Number.isFinite(start) || !Number.isFinite(duration) || duration < 0) {
      throw new SyntaxError(`RTTM line ${i + 1} has no valid start and duration: "${line}".`);
    }
    turns.push({ start, end: start + duration });
  });
  turns.sort((a, b) => a.start - b.start);
  const merged: TimeSpan[] = [];
  for (const t of turns) {
    const last = merged[merged.length - 1];
    if (last && t.start <= last.end) last.end = Math.max(last.end, t.end);
    else merged.push({ ...t });
  }
  return merged;
}
