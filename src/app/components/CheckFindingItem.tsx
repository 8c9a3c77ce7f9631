import { formatTimecode } from '../../core/format/timecode';
import type { Finding } from '../../core/subtitles/check';
import { seekTo } from '../lib/player';

/** One finding: its time (a button that seeks the player there), its sentence, its fix. */
export function CheckFindingItem({
  finding,
  onFix,
}: {
  finding: Finding;
  onFix: (finding: Finding) => void;
}) {
  return (
    <li className="flex flex-wrap items-baseline gap-2 text-sm" data-testid="check.finding">
      <button
        type="button"
        onClick={() => seekTo(finding.start)}
        className="rounded font-mono text-xs text-indigo-800 underline focus-visible:outline-2 focus-visible:outline-indigo-600"
        data-testid="check.seek"
      >
        {formatTimecode(Math.round(finding.start * 1000), ',')}
      </button>
      <span className="min-w-0 flex-1 text-slate-800" data-testid="check.message">
        {finding.message}
      </span>
      {finding.fix && (
        <button
          type="button"
          onClick={() => onFix(finding)}
          title={finding.fix.label}
          className="rounded-lg px-2 py-0.5 text-xs font-medium text-indigo-800 ring-1 ring-indigo-300 hover:bg-indigo-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
          data-testid="check.fix"
        >
          Fix
        </button>
      )}
    </li>
  );
}
