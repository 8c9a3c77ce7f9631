import { useState } from 'react';
import { parseSavedResult } from '../lib/saved-result';
import { useAppStore } from '../store/app-store';

/** Reopens a result saved with the JSON download, to read it or export subtitles again. */
export function OpenSavedResult() {
  const showResult = useAppStore((s) => s.showResult);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="text-sm">
      <label className="cursor-pointer text-indigo-700 underline-offset-2 hover:underline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-500">
        Open a saved result (.json)
        <input
          type="file"
          accept="application/json,.json"
          className="sr-only"
          data-testid="result.open"
          onChange={async (e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (!file) return;
            try {
              showResult(parseSavedResult(await file.text()), file.name.replace(/\.json$/i, ''));
              setError(null);
            } catch (thrown) {
              setError(thrown instanceof Error ? thrown.message : String(thrown));
            }
          }}
        />
      </label>
      {error && (
        <p role="alert" className="mt-1 text-rose-700" data-testid="result.open-error">
          {error}
        </p>
      )}
    </div>
  );
}
