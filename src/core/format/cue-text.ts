import { SPEAKER_NOT_ACTIVATED } from '../contract/response';

/**
 * The text line of one subtitle entry: one line (an entry has exactly three lines, spec 2.8),
 * inner whitespace collapsed, and the leading space the spec requires. When diarization
 * labelled the segment, the line starts with its speaker (` speaker_0: text`), so that a
 * viewer can follow who speaks, as the TXT output does.
 */
export function cueTextLine(transcription: string, speaker?: string): string {
  const flat = transcription.replace(/\s+/g, ' ').trim();
  return hasSpeaker(speaker) ? ` ${speaker.trim()}: ${flat}` : ` ${flat}`;
}

/** Whether a segment's speaker was labelled (diarization on), as opposed to absent. */
export function hasSpeaker(speaker: string | undefined): speaker is string {
  return speaker !== undefined && speaker !== SPEAKER_NOT_ACTIVATED && speaker.trim() !== '';
}
