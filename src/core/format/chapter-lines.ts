import type { Chapter } from '../contract/response';
import { clockTime, cueMilliseconds, formatTimecode } from './timecode';
import { escapeCueText } from './vtt';

/** Video sites read a chapter list only when every chapter is at least this long. */
export const MIN_LISTED_CHAPTER_SECONDS = 10;

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Where each chapter starts in a list: the first at 0, each at least 10 s after the one before. */
function listedStarts(chapters: readonly Chapter[]): { chapter: Chapter; start: number }[] {
  const listed: { chapter: Chapter; start: number }[] = [];
  for (const chapter of chapters) {
    const start = listed.length === 0 ? 0 : Math.floor(chapter.time_begin);
    const previous = listed[listed.length - 1];
    // Too close to the one before to be listed: the earlier chapter goes on over it.
    if (previous && start - previous.start < MIN_LISTED_CHAPTER_SECONDS) continue;
    listed.push({ chapter, start });
  }
  return listed;
}

/**
 * Chapters as a video description lists them: one `0:00 Headline` line a chapter, the first at
 * 0:00, each at least 10 s after the one before (a closer one is left out: its time is the
 * chapter before's).
 */
export function renderChapterLines(chapters: readonly Chapter[]): string {
  const lines = listedStarts(chapters).map(
    ({ chapter, start }) => `${clockTime(start)} ${oneLine(chapter.headline)}`,
  );
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/**
 * A WebVTT chapters file (a `<track kind="chapters">`): one cue a chapter with its headline,
 * from 0 to the end of the recording without a gap (a chapter lasts until the next begins).
 */
export function renderVttChapters(chapters: readonly Chapter[], duration: number): string {
  const listed = listedStarts(chapters);
  if (listed.length === 0) return 'WEBVTT\n';
  const cues = listed.map(({ chapter, start }, i) => {
    const next = listed[i + 1];
    const end = next ? next.start : Math.max(duration, chapter.time_end);
    const [b, e] = cueMilliseconds(start, end);
    return `${i + 1}\n${formatTimecode(b, '.')} --> ${formatTimecode(e, '.')}\n${escapeCueText(oneLine(chapter.headline))}`;
  });
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}
