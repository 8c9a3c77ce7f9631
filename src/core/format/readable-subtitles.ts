import { formatTimecode } from './timecode';
import type { ReadableCue } from './readable-cues';
import { escapeCueText } from './vtt';

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

/** WebVTT text of readable cues, escaped as `prediction`'s VTT is. */
export function renderReadableVtt(cues: readonly ReadableCue[]): string {
  const list = entries(cues, '.', escapeCueText);
  return list.length === 0 ? 'WEBVTT\n' : `WEBVTT\n\n${list.join('\n\n')}\n`;
}
