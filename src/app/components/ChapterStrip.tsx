import type { Chapter } from '../../core/contract/response';
import { clock } from '../lib/time';
import { useChapterJump } from './ChaptersView';

/**
 * The chapters laid along the recording under the player, each as wide as it is long: one
 * press plays from a chapter's start.
 */
export function ChapterStrip({
  chapters,
  duration,
}: {
  chapters: readonly Chapter[];
  duration: number;
}) {
  const jump = useChapterJump(true);
  if (chapters.length === 0 || duration <= 0) return null;
  return (
    <nav aria-label="Chapters along the recording" data-testid="result.chapter-strip">
      <ol className="flex h-7 w-full gap-0.5 overflow-hidden rounded-lg">
        {chapters.map((chapter, i) => {
          const end = chapters[i + 1]?.time_begin ?? duration;
          const start = i === 0 ? 0 : chapter.time_begin;
          return (
            <li key={`${i}:${start}`} style={{ flexGrow: Math.max(0.01, end - start) }}>
              <button
                type="button"
                title={`${clock(start)} ${chapter.headline}`}
                aria-label={`Chapter ${i + 1}: ${chapter.headline}, from ${clock(start)}`}
                className="h-full w-full truncate bg-indigo-100 px-2 text-left text-xs font-medium text-indigo-900 hover:bg-indigo-200 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-700"
                onClick={() => jump(chapter, i)}
              >
                {chapter.headline}
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
