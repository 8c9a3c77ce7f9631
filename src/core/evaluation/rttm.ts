/**
 * RTTM, the NIST Rich Transcription Time Marked format that diarization references come in:
 * one `SPEAKER <file> <channel> <start> <duration> <NA> <NA> <speaker> <NA> <NA>` line a turn.
 * Other line types (LEXEME, SPKR-INFO, ...) and `;;` comments carry nothing a diarization score
 * needs, so they are skipped.
 */
import type { Seconds } from '../units';

/** One stretch of one speaker's speech. */
export interface SpeakerTurn {
  speaker: string;
  start: Seconds;
  end: Seconds;
}

export interface RttmOptions {
  /** Keep only the turns of this file id (an RTTM may hold a whole corpus). */
  file?: string;
}

/**
 * The SPEAKER turns of RTTM text, in the file's order. A SPEAKER line that cannot be read
 * (too few fields, a time that is not a number, a negative duration) throws with its line
 * number: a silently dropped turn would score as missed speech.
 */
export function parseRttm(text: string, options: RttmOptions = {}): SpeakerTurn[] {
  const turns: SpeakerTurn[] = [];
  text.split(/\r?\n/).forEach((line, index) => {
    const fields = line.trim().split(/\s+/);
    if (fields[0] !== 'SPEAKER') return;
    if (fields.length < 8) {
      throw new SyntaxError(`RTTM line ${index + 1}: a SPEAKER line needs at least 8 fields`);
    }
    const [, file, , startText, durationText, , , speaker] = fields as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    if (options.file !== undefined && file !== options.file) return;
    const start = Number(startText);
    const duration = Number(durationText);
    if (!Number.isFinite(start) || !Number.isFinite(duration) || start < 0 || duration < 0) {
      throw new SyntaxError(
        `RTTM line ${index + 1}: start "${startText}" and duration "${durationText}" must be non-negative numbers`,
      );
    }
    turns.push({ speaker, start, end: start + duration });
  });
  return turns;
}

/** The file ids an RTTM text holds turns for, in order of first appearance. */
export function rttmFiles(text: string): string[] {
  const files = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const fields = line.trim().split(/\s+/);
    if (fields[0] === 'SPEAKER' && fields[1] !== undefined) files.add(fields[1]);
  }
  return [...files];
}

export interface RttmFormatOptions {
  /** The file id written on every line (RTTM has no way to leave it out). */
  file: string;
  /** The channel field; RTTM counts channels from 1. */
  channel?: number;
}

/**
 * Turns as RTTM text, one SPEAKER line each and a final newline; times to the millisecond,
 * as md-eval and pyannote write them. Speaker names may not hold spaces (fields are split on
 * them), so spaces become underscores.
 */
export function formatRttm(turns: readonly SpeakerTurn[], options: RttmFormatOptions): string {
  const channel = options.channel ?? 1;
  return turns
    .map((turn) => {
      const start = turn.start.toFixed(3);
      const duration = Math.max(0, turn.end - turn.start).toFixed(3);
      const speaker = turn.speaker.replace(/\s+/g, '_');
      return `SPEAKER ${options.file} ${channel} ${start} ${duration} <NA> <NA> ${speaker} <NA> <NA>\n`;
    })
    .join('');
}
