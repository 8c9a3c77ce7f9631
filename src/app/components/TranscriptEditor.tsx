import type { Segment } from '../../core/contract/response';
import { SPEAKER_NOT_ACTIVATED } from '../../core/contract/response';
import { EditorToolbar } from './EditorToolbar';
import { SegmentEditor } from './SegmentEditor';

interface TranscriptEditorProps {
  segments: readonly Segment[];
  /** Whether the media is there to play (not for a reopened saved result). */
  playable: boolean;
}

/** The result's segments, each one correctable in place, with undo and redo. */
export function TranscriptEditor({ segments, playable }: TranscriptEditorProps) {
  const channels = new Set(segments.map((s) => s.channel)).size;
  const speakers = [
    ...new Set(segments.map((s) => s.speaker).filter((s) => s !== SPEAKER_NOT_ACTIVATED)),
  ];
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
            />
          ))}
        </ol>
      )}
    </div>
  );
}
