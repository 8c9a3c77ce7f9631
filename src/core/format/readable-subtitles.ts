import { formatTimecode } from './timecode';
import type { ReadableCue } from './readable-cues';
import { escapeCueText } from './vtt';
import type { Segment } from '../contract/response';

function entries(cues: readonly ReadableCue[], separator: ',' | '.', escape = (t: string) => t) {
  return cues.map((cue, i) => {
    const begin = formatTimecode(Math.round(cue.begin * 1000), separator);
    const end = formatTimecode(Math.round(cue.end * 1000), separator);
    return `${i + 1}\n${begin} --> ${end}\n${cue.lines.map(escape).join('\n')}`;
  });
}

/**
 * SubRip text of readable cues: the same entries as `prediction`'s SRT, but a cue holds up to
 * the limits' lines, without the leading space (players show it).
 */
export function renderReadableSrt(cues: readonly ReadableCue[]): string {
  const list = entries(cues, ',');
  return list.length === 0 ? '' : `${list.join('\n\n')}\n`;
}

/**
 * WebVTT text of readable cues, escaped as `prediction`'s VTT is. The lines of a script that
 * nobody said (`segments` marked `not_said`) are written as NOTE blocks where they stand: before
 * the first cue that starts at or after them.
 */
export function renderReadableVtt(
  cues: readonly ReadableCue[],
  segments: readonly Pick<Segment, 'transcription' | 'time_begin' | 'not_said'>[] = [],
): string {
  const list = entries(cues, '.', escapeCueText);
  const notes = segments.filter((s) => s.not_said);
  const blocks: string[] = [];
  let n = 0;
  cues.forEach((cue, i) => {
    for (; n < notes.length && notes[n]!.time_begin <= cue.begin; n++) blocks.push(note(notes[n]!));
    blocks.push(list[i]!);
  });
  for (; n < notes.length; n++) blocks.push(note(notes[n]!));
  return blocks.length === 0 ? 'WEBVTT\n' : `WEBVTT\n\n${blocks.join('\n\n')}\n`;
}

function note(segment: Pick<Segment, 'transcription'>): string {
  return `NOTE Not said: ${escapeCueText(segment.transcription.replace(/\s+/g, ' ').trim())}`;
}
