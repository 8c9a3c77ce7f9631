import type { TranscriptionResponse } from '../../core/contract/response';

/** The response's `prediction` exactly as an API caller receives it. */
export function PredictionView({ result }: { result: TranscriptionResponse }) {
  return (
    <details className="group rounded-xl bg-slate-900 text-slate-100">
      <summary className="cursor-pointer px-4 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-indigo-400">
        prediction (as returned by the service)
      </summary>
      <pre
        // Focusable, so that a keyboard can scroll it.
        tabIndex={0}
        aria-label="prediction"
        className="max-h-80 overflow-auto px-4 pb-4 text-xs leading-relaxed whitespace-pre-wrap [overflow-wrap:anywhere] focus-visible:outline-2 focus-visible:outline-indigo-400"
        data-testid="result.prediction"
      >
        {result.prediction}
      </pre>
    </details>
  );
}
