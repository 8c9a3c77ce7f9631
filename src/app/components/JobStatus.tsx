import { useEffect, useRef } from 'react';
import { userError } from '../lib/user-wording';
import { useAppStore } from '../store/app-store';

/** Progress while a job runs; the reason when it failed; notices about ignored fields. */
export function JobStatus() {
  const status = useAppStore((s) => s.status);
  const progress = useAppStore((s) => s.progress);
  const error = useAppStore((s) => s.error);
  const notices = useAppStore((s) => s.notices);
  const values = useAppStore((s) => s.values);
  const cancelled = useRef<HTMLParagraphElement>(null);
  // The Cancel button goes with the job, and the progress and text above it shrink to this
  // line: it takes the focus (which would fall to the page) and is brought into view, or the
  // page would show whatever slid under the place the progress was.
  useEffect(() => {
    if (status !== 'cancelled') return;
    const focus = document.activeElement;
    if (focus === null || focus === document.body)
      cancelled.current?.focus({ preventScroll: true });
    cancelled.current?.scrollIntoView({ block: 'nearest' });
  }, [status]);
  return (
    <div className="space-y-3" aria-live="polite">
      {status === 'running' && (
        <div
          className="rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200"
          data-testid="job.progress"
        >
          <p className="text-sm font-medium text-slate-800">
            {progress ? progress.title : 'Starting'}
            {progress?.fraction != null && ` · ${Math.round(progress.fraction * 100)}%`}
          </p>
          {progress?.detail && <p className="text-xs text-slate-600">{progress.detail}</p>}
          <div className="mt-3 h-2 overflow-hidden rounded-full bg-slate-100">
            <div
              className={`h-full rounded-full bg-indigo-500 transition-all ${progress?.fraction == null ? 'w-1/3 animate-pulse' : ''}`}
              style={
                progress?.fraction != null ? { width: `${progress.fraction * 100}%` } : undefined
              }
            />
          </div>
        </div>
      )}
      {status === 'failed' && error && (
        <div
          role="alert"
          data-testid="job.error"
          className="rounded-2xl border border-rose-200 bg-rose-50 p-5 text-sm text-rose-900"
        >
          <p className="font-semibold">The transcription did not run</p>
          <p className="mt-1" data-testid="job.error-message">
            {userError(error.message, error.problems, values)}
          </p>
          <p className="mt-2 text-xs text-rose-700">
            Error code: <code>{error.code}</code>. Your file and options are still here.
          </p>
        </div>
      )}
      {status === 'cancelled' && (
        <p
          ref={cancelled}
          tabIndex={-1}
          className="rounded-xl bg-slate-200/60 p-3 text-sm text-slate-700 focus:outline-2 focus:outline-offset-2 focus:outline-indigo-600"
          data-testid="job.cancelled"
        >
          Cancelled. Your file and options are still here.
        </p>
      )}
      {notices.length > 0 && (
        <ul className="rounded-xl bg-sky-50 p-3 text-sm text-sky-900" data-testid="job.notices">
          {notices.map((n) => (
            <li key={n}>{userError(n, [], values)}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
