import type { SubtitleCue } from './cue';

const TIMING =
  /^\s*((?:\d+:)?\d{1,2}:\d{2}[,.]\d{1,3})\s*-->\s*((?:\d+:)?\d{1,2}:\d{2}[,.]\d{1,3})/;

/** `[HH:]MM:SS,mmm` or `.mmm` to seconds. */
function seconds(timecode: string): number {
  const [clock, fraction = '0'] = timecode.split(/[,.]/);
  const parts = (clock as string).split(':').map(Number);
  const whole = parts.reduce((sum, part) => sum * 60 + part, 0);
  return (whole * 1000 + Number(fraction.padEnd(3, '0'))) / 1000;
}

/** The text a player shows: markup tags removed, WebVTT character references read. */
function shown(line: string): string {
  return line
    .replace(/<[^>]*>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, '\u00a0')
    .replace(/&amp;/g, '&')
    .trimEnd();
}

/**
 * The cues of SubRip or WebVTT text, in file order. Blocks without a timing line (the WEBVTT
 * header, NOTE, STYLE and REGION blocks) are skipped; cue settings after the end time are
 * ignored.
 */
export function parseSubtitles(text: string): SubtitleCue[] {
  const blocks = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/);
  const cues: SubtitleCue[] = [];
  for (const block of blocks) {
    const lines = block.split('\n');
    const at = lines.findIndex((line) => TIMING.test(line));
    if (at === -1 || /^(NOTE|STYLE|REGION)\b/.test(lines[0]?.trim() ?? '')) continue;
    const [, begin, end] = TIMING.exec(lines[at] as string) as RegExpExecArray;
    cues.push({
      begin: seconds(begin as string),
      end: seconds(end as string),
      lines: lines
        .slice(at + 1)
        .map(shown)
        .filter((line) => line.trim() !== ''),
    });
  }
  return cues;
}
