import { useState } from 'react';
import { recordingTitle } from '../lib/recording/wav-file';
import type { RecordingMeta } from '../lib/recording/recording-storage';
import { deleteStored, downloadStored, transcribeStored } from '../store/recording-actions';

const button = 'rounded-lg px-3 py-1.5 text-sm font-medium';

/** A recording kept in the browser: transcribe it, save it, or (once sure) delete it. */
export function StoredRecordingItem({ meta }: { meta: RecordingMeta }) {
  const [confirming, setConfirming] = useState(false);
  const title = recordingTitle(meta.startedAt, meta.seconds);
  return (
    <li className="py-2" data-testid="record.stored">
      <p className="font-medium text-slate-900" data-testid="record.stored-title">
        {title}
      </p>
      {confirming ? (
        <div className="mt-1 flex flex-wrap items-center gap-2 text-sm">
          <span className="text-slate-800">Delete this recording for good?</span>
          <button
            type="button"
            className={`${button} bg-rose-700 text-white hover:bg-rose-800`}
            data-testid="record.stored-confirm-delete"
            onClick={() => void deleteStored(meta.id)}
          >
            Delete
          </button>
          <button
            type="button"
            className={`${button} text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50`}
            onClick={() => setConfirming(false)}
          >
            Keep
          </button>
        </div>
      ) : (
        <div className="mt-1 flex flex-wrap gap-2">
          <button
            type="button"
            className={`${button} bg-indigo-600 text-white hover:bg-indigo-700`}
            aria-label={`Transcribe ${title}`}
            data-testid="record.stored-transcribe"
            onClick={() => void transcribeStored(meta.id)}
          >
            Transcribe
          </button>
          <button
            type="button"
            className={`${button} text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50`}
            aria-label={`Download ${title}`}
            data-testid="record.stored-download"
            onClick={() => void downloadStored(meta.id)}
          >
            Download
          </button>
          <button
            type="button"
            className={`${button} text-rose-700 ring-1 ring-rose-200 hover:bg-rose-50`}
            aria-label={`Delete ${title}`}
            data-testid="record.stored-delete"
            onClick={() => setConfirming(true)}
          >
            Delete
          </button>
        </div>
      )}
    </li>
  );
}
