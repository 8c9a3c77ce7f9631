import type { ProvisionalSegment } from '../../core/assemble/provisional-segment';
import { clock } from '../lib/time';

/**
 * What the window being decoded is heard to say so far, after the segments already decided,
 * marked as provisional: the window's own segments replace it once its checks pass.
 */
export function ProvisionalText({ segments }: { segments: readonly ProvisionalSegment[] }) {
  const first = segments[0];
  if (!first) return null;
  return (
    <p
      className="flex gap-3 border-t border-slate-100 px-4 py-3 text-sm text-slate-600"
      data-testid="result.provisional"
    >
      <span className="w-14 shrink-0 pt-0.5 font-mono text-xs">{clock(first.start)}</span>
      <span className="min-w-0 flex-1 italic leading-relaxed [overflow-wrap:anywhere]">
        <span className="sr-only">Provisional: </span>
        {segments.map((s) => s.text).join(' ')}
      </span>
    </p>
  );
}
