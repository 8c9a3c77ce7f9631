import { timelinePercent } from '../lib/speaker-lanes';
import { useAppStore } from '../store/app-store';

/** The playback position, a line across every lane (the lanes' name column left out). */
export function TimelineCursor({ duration }: { duration: number }) {
  const playhead = useAppStore((s) => s.playhead);
  return (
    <div
      aria-hidden="true"
      className="pointer-events-none absolute inset-y-0 right-0 left-22 sm:left-34"
    >
      <div
        className="absolute inset-y-0 w-0.5 -translate-x-1/2 rounded bg-slate-900"
        style={{ left: `${timelinePercent(playhead, duration)}%` }}
        data-testid="timeline.cursor"
      />
    </div>
  );
}
