import type { Segment } from '../../core/contract/response';
import { SPEAKER_NOT_ACTIVATED } from '../../core/contract/response';
import { speakerColour } from '../lib/speaker-colour';
import { clock } from '../lib/time';

interface SegmentListProps {
  segments: readonly Segment[];
  /** When set, each segment is a button that plays from its start. */
  onChoose?: (time: number) => void;
}

export function SegmentList({ segments, onChoose }: SegmentListProps) {
  if (segments.length === 0) {
    return (
      <p className="p-6 text-center text-sm text-slate-600" data-testid="result.empty">
        No speech was found in this recording.
      </p>
    );
  }
  const channels = new Set(segments.map((s) => s.channel)).size;
  return (
    <ol className="divide-y divide-slate-100" data-testid="result.segments">
      {segments.map((segment, i) => (
        <li key={i} className="flex gap-3 px-4 py-3" data-testid="result.segment">
          {onChoose ? (
            <button
              type="button"
              onClick={() => onChoose(segment.time_begin)}
              aria-label={`Play from ${clock(segment.time_begin)}`}
              className="w-14 shrink-0 self-start rounded pt-0.5 text-left font-mono text-xs text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500"
              data-testid="result.segment-time"
            >
              ▶ {clock(segment.time_begin)}
            </button>
          ) : (
            <span className="w-14 shrink-0 pt-0.5 font-mono text-xs text-slate-600">
              {clock(segment.time_begin)}
            </span>
          )}
          <div className="min-w-0 flex-1">
            <div className="mb-1 flex flex-wrap gap-1.5 text-[11px] font-medium">
              {segment.speaker !== SPEAKER_NOT_ACTIVATED && (
                <span className={`rounded px-1.5 py-0.5 ${speakerColour(segment.speaker)}`}>
                  {segment.speaker}
                </span>
              )}
              {channels > 1 && (
                <span className="rounded bg-slate-100 px-1.5 py-0.5 text-slate-600">
                  {segment.channel}
                </span>
              )}
              <span
                className="rounded bg-slate-100 px-1.5 py-0.5 uppercase text-slate-600"
                data-testid="result.segment-language"
              >
                {segment.language}
              </span>
            </div>
            <p
              className="text-sm leading-relaxed [overflow-wrap:anywhere] text-slate-900"
              data-testid="result.segment-text"
            >
              {segment.transcription.trim()}
            </p>
          </div>
        </li>
      ))}
    </ol>
  );
}
