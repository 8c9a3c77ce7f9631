import { OUTPUT_FORMATS } from '../../core/contract/request';
import type { TranscriptionResponse } from '../../core/contract/response';
import { downloadText, saveFile } from '../lib/download';

export function Downloads({ result, name }: { result: TranscriptionResponse; name: string }) {
  return (
    <div className="flex flex-wrap gap-2" role="group" aria-label="Downloads">
      {OUTPUT_FORMATS.map((format) => (
        <button
          key={format}
          type="button"
          data-testid={`download.${format}`}
          onClick={() => saveFile(downloadText(result, format), format, name)}
          className="rounded-lg bg-white px-3 py-1.5 text-sm font-medium text-slate-700 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500"
        >
          ⬇ {format.toUpperCase()}
        </button>
      ))}
    </div>
  );
}
