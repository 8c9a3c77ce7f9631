import type { Chapter, Segment } from '../../core/contract/response';
import { displayName, speakerLabels } from '../../core/edit/speaker-names';
import { useAppStore } from '../store/app-store';
import { currentNames } from '../store/editor-slice';
import { chapterHeadingId } from './ChaptersView';
import { EditorToolbar } from './EditorToolbar';
import { SegmentEditor } from './SegmentEditor';

interface TranscriptEditorProps {
  /** The segments as corrected, their speakers by label (the names are applied here). */
  segments: readonly Segment[];
  /** Whether the media is there to play (not for a reopened saved result). */
  playable: boolean;
  /** Chapters found, shown as headings over their segments. */
  chapters?: readonly Chapter[];
}

/**
 * The segments under each chapter, by time: a segment belongs to the last chapter that starts
 * at or before it, so that corrections which split or join segments keep the headings in place.
 */
function byChapter(segments: readonly Segment[], chapters: readonly Chapter[]): number[][] {
  const groups: number[][] = chapters.map(() => []);
  segments.forEach((segment, i) => {
    let c = 0;
    while (c + 1 < chapters.length && chapters[c + 1]!.time_begin <= segment.time_begin + 1e-3) {
      c += 1;
    }
    groups[c]!.push(i);
  });
  return groups;
}

/** The result's segments, each one correctable in place, with undo and redo. */
export function TranscriptEditor({ segments, playable, chapters = [] }: TranscriptEditorProps) {
  const channels = new Set(segments.map((s) => s.channel)).size;
  const names = useAppStore(currentNames);
  const labels = speakerLabels(segments);
  const speakers = labels.map((label) => displayName(label, names));
  const row = (i: number) => (
    <SegmentEditor
      key={`${i}:${segments[i]!.time_begin}`}
      segment={segments[i]!}
      index={i}
      last={i === segments.length - 1}
      playable={playable}
      showChannel={channels > 1}
      labels={labels}
      names={names}
    />
  );
  return (
    <div>
      <EditorToolbar />
      <datalist id="speaker-names">
        {speakers.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      {segments.length > 0 && chapters.length > 0 ? (
        <div data-testid="result.segments">
          {byChapter(segments, chapters).map((indices, c) => (
            <section key={c} aria-labelledby={chapterHeadingId(c)}>
              <h3
                id={chapterHeadingId(c)}
                tabIndex={-1}
                className="scroll-mt-4 border-y border-slate-200 bg-slate-50 px-4 py-2 text-sm font-semibold text-slate-900 focus:outline-2 focus:-outline-offset-2 focus:outline-indigo-600"
                data-testid="result.chapter-heading"
              >
                {chapters[c]!.headline}
              </h3>
              <ol className="divide-y divide-slate-200">{indices.map(row)}</ol>
            </section>
          ))}
        </div>
      ) : segments.length === 0 ? (
        <p className="p-6 text-center text-sm text-slate-600" data-testid="result.empty">
          No speech was found in this recording.
        </p>
      ) : (
        <ol className="divide-y divide-slate-200" data-testid="result.segments">
          {segments.map((_, i) => row(i))}
        </ol>
      )}
    </div>
  );
}
