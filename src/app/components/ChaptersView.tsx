import type { Chapter } from '../../core/contract/response';
import { clock } from '../lib/time';
import { useAppStore } from '../store/app-store';

/** The id of a chapter's heading in the transcript, where its headline jumps to. */
export const chapterHeadingId = (index: number) => `chapter-${index + 1}`;

/** Moves the transcript to a chapter's heading and, with the media there, plays from it. */
export function useChapterJump(playable: boolean) {
  const seekTo = useAppStore((s) => s.seekTo);
  return (chapter: Chapter, index: number) => {
    if (playable) seekTo(chapter.time_begin);
    const heading = document.getElementById(chapterHeadingId(index));
    heading?.scrollIntoView({ block: 'start', behavior: 'smooth' });
    heading?.focus({ preventScroll: true });
  };
}

/** The chapters found: a headline (it jumps to the chapter), the gist, keywords and summary. */
export function ChaptersView({
  chapters,
  note,
  playable,
}: {
  chapters: readonly Chapter[];
  note: string | undefined;
  playable: boolean;
}) {
  const jump = useChapterJump(playable);
  return (
    <section
      aria-labelledby="chapters-title"
      className="space-y-3 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
      data-testid="result.chapters"
    >
      <h3 id="chapters-title" className="text-base font-semibold text-slate-900">
        Chapters
      </h3>
      {note && (
        <p className="text-sm text-slate-600" data-testid="result.chapters-note">
          {note}
        </p>
      )}
      <ol className="space-y-3">
        {chapters.map((chapter, i) => (
          <li key={`${i}:${chapter.time_begin}`} data-testid="result.chapter">
            <button
              type="button"
              className="text-left font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
              onClick={() => jump(chapter, i)}
            >
              <span className="mr-2 font-mono text-sm tabular-nums text-slate-600">
                {clock(chapter.time_begin)}
              </span>
              {chapter.headline}
            </button>
            {chapter.keywords.length > 0 && (
              <p className="mt-1 text-xs text-slate-600">
                <span className="sr-only">Keywords: </span>
                {chapter.keywords.join(' · ')}
              </p>
            )}
            {chapter.summary && <p className="mt-1 text-sm text-slate-800">{chapter.summary}</p>}
          </li>
        ))}
      </ol>
    </section>
  );
}
