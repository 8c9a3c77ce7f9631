import { OUTPUT_FORMATS } from '../../core/contract/request';
import type { TranscriptionResponse } from '../../core/contract/response';
import { downloadText, readableText, saveFile } from '../lib/download';
import { useAppStore } from '../store/app-store';

const buttonClass =
  'rounded-lg bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

/**
 * Downloads of the corrected result: each format as the service renders it, and subtitles
 * that read well (the limits are set under "Subtitle limits").
 */
export function Downloads({ result, name }: { result: TranscriptionResponse; name: string }) {
  const limits = useAppStore((s) => s.cueLimits);
  const segments = result.prediction_raw.transcription;
  return (
    <div className="flex flex-wrap gap-2" role="group" aria-label="Downloads">
      {OUTPUT_FORMATS.map((format) => (
        <button
          key={format}
          type="button"
          data-testid={`download.${format}`}
          onClick={() => saveFile(downloadText(result, format), format, name)}
          className={buttonClass}
        >
          ⬇ {format.toUpperCase()}
        </button>
      ))}
      {(['srt', 'vtt'] as const).map((format) => (
        <button
          key={`readable-${format}`}
          type="button"
          data-testid={`download.readable-${format}`}
          onClick={() =>
            saveFile(readableText(segments, limits, format), format, `${name}-readable`)
          }
          className={buttonClass}
        >
          ⬇ Readable {format.toUpperCase()}
        </button>
      ))}
    </div>
  );
}
