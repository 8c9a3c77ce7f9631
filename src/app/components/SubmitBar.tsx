import { useRef } from 'react';
import { useFocusAbove } from '../hooks/use-focus-above';
import { useAppStore } from '../store/app-store';
import { runBatch } from '../store/batch-actions';
import { cancelTranscription, submitTranscription } from '../store/transcribe-actions';
import { RuntimeStatus } from './RuntimeStatus';

export function SubmitBar() {
  const running = useAppStore((s) => s.status === 'running');
  const queued = useAppStore((s) => s.batch.filter((i) => i.status === 'queued').length);
  const batchRunning = useAppStore((s) => s.batchActive);
  const bar = useRef<HTMLDivElement>(null);
  useFocusAbove(bar);
  return (
    <div
      ref={bar}
      className="sticky bottom-0 -mx-1 flex flex-wrap gap-3 bg-gradient-to-t from-slate-100 via-slate-100 px-1 pb-1 pt-4"
    >
      <RuntimeStatus testId="runtime.progress" className="basis-full" />
      <button
        type="submit"
        disabled={running || batchRunning}
        data-testid="form.submit"
        className="flex-1 rounded-xl bg-indigo-600 px-5 py-3 text-base font-semibold text-white shadow-md transition hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:bg-indigo-300"
      >
        {running || batchRunning
          ? 'Transcribing…'
          : queued > 0
            ? `Transcribe ${queued} ${queued === 1 ? 'file' : 'files'}`
            : 'Transcribe'}
      </button>
      {running && (
        <button
          type="button"
          onClick={cancelTranscription}
          data-testid="form.cancel"
          className="rounded-xl bg-white px-5 py-3 text-base font-medium text-slate-700 shadow ring-1 ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          Cancel
        </button>
      )}
    </div>
  );
}

export function onSubmit(event: { preventDefault: () => void }) {
  event.preventDefault();
  // Files waiting in the queue go first; one file or a link otherwise.
  if (useAppStore.getState().batch.some((i) => i.status === 'queued')) void runBatch();
  else void submitTranscription();
}
