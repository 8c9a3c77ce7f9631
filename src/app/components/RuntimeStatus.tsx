import type { RuntimeName } from '../../worker/runtimes';
import { runtimeSentence } from '../lib/runtime-wording';
import { useAppStore } from '../store/app-store';

const ORDER: readonly RuntimeName[] = ['decoder', 'speech', 'gpu'];

/**
 * The runtimes being fetched, one line each ("Preparing the decoder: 12 of 32 MB"): they come
 * when first needed, so the first transcription on a device waits for them.
 */
export function RuntimeStatus({ testId, className = '' }: { testId: string; className?: string }) {
  const runtimes = useAppStore((s) => s.runtimes);
  const shown = ORDER.flatMap((name) => {
    const progress = runtimes[name];
    return progress ? [progress] : [];
  });
  if (shown.length === 0) return null;
  return (
    <div role="status" className={`space-y-1 ${className}`}>
      {shown.map((progress) => (
        <p
          key={progress.runtime}
          data-testid={`${testId}-${progress.runtime}`}
          className="text-xs text-slate-700"
        >
          {runtimeSentence(progress)}
        </p>
      ))}
    </div>
  );
}
