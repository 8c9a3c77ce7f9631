import type { Segment } from '../../core/contract/response';
import { displayName, speakerLabels } from '../../core/edit/speaker-names';
import { useAppStore } from '../store/app-store';
import { currentNames } from '../store/editor-slice';
import { EditorToolbar } from './EditorToolbar';
import { SegmentEditor } from './SegmentEditor';

interface TranscriptEditorProps {
  /** The segments as corrected, their speakers by label (the names are applied here). */
  segments: readonly Segment[];
  /** Whether the media is there to play (not for a reopened saved result). */
  playable: boolean;
}

/** The result's segments, each one correctable in place, with undo and redo. */
export function TranscriptEditor({ segments, playable }: TranscriptEditorProps) {
  const channels = new Set(segments.map((s) => s.channel)).size;
  const names = useAppStore(currentNames);
  const labels = speakerLabels(segments);
  const speakers = labels.map((label) => displayName(label, names));
  return (
    <div>
      <EditorToolbar />
      <datalist id="speaker-names">
        {speakers.map((name) => (
          <option key={name} value={name} />
        ))}
      </datalist>
      {segments.length === 0 ? (
        <p className="p-6 text-center text-sm text-slate-600" data-testid="result.empty">
          No speech was found in this recording.
        </p>
      ) : (
        <ol className="divide-y divide-slate-200" data-testid="result.segments">
          {segments.map((segment, i) => (
            <SegmentEditor
              key={`${i}:${segment.time_begin}`}
              segment={segment}
              index={i}
              last={i === segments.length - 1}
              playable={playable}
              showChannel={channels > 1}
              labels={labels}
              names={names}
            />
          ))}
        </ol>
      )}
    </div>
  );
}
