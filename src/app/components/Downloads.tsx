import { OUTPUT_FORMATS } from '../../core/contract/request';
import type { TranscriptionResponse } from '../../core/contract/response';
import { useState } from 'react';
import { hasTranslation, originalSegments } from '../../core/translation/original-segments';
import { renderChapterLines, renderVttChapters } from '../../core/format/chapter-lines';
import { downloadText, readableText, saveFile } from '../lib/download';
import { languageLabel } from '../lib/language-label';
import { useAppStore } from '../store/app-store';

const buttonClass =
  'rounded-lg bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

/** The languages a translated result can be downloaded in. */
type DownloadLanguage = 'translation' | 'original';

/**
 * Downloads of the corrected result: each format as the service renders it, and subtitles
 * that read well (the limits are set under "Subtitle limits"). A translated result can be
 * downloaded in the translation or in the language it was spoken in (the JSON holds both).
 */
export function Downloads({ result, name }: { result: TranscriptionResponse; name: string }) {
  const limits = useAppStore((s) => s.cueLimits);
  const [language, setLanguage] = useState<DownloadLanguage>('translation');
  const translated = hasTranslation(result.prediction_raw.transcription);
  const original = translated && language === 'original';
  const segments = original
    ? originalSegments(result.prediction_raw.transcription)
    : result.prediction_raw.transcription;
  const shown: TranscriptionResponse = original
    ? { ...result, prediction_raw: { ...result.prediction_raw, transcription: segments } }
    : result;
  const suffix = original ? '-original' : '';
  const target = result.prediction_raw.transcription.find((s) => s.source_transcription)?.language;
  return (
    <div className="flex flex-wrap gap-2" role="group" aria-label="Downloads">
      {translated && (
        <label className="flex items-center gap-2 text-sm text-slate-700">
          Download in
          <select
            className="rounded-lg bg-white px-2 py-1.5 text-sm ring-1 ring-slate-300"
            value={language}
            data-testid="download.language"
            onChange={(e) => setLanguage(e.target.value as DownloadLanguage)}
          >
            <option value="translation">
              {target ? languageLabel(target) : 'The translation'}
            </option>
            <option value="original">The spoken language (original)</option>
          </select>
        </label>
      )}
      {OUTPUT_FORMATS.map((format) => (
        <button
          key={format}
          type="button"
          data-testid={`download.${format}`}
          onClick={() =>
            saveFile(
              downloadText(format === 'json' ? result : shown, format),
              format,
              format === 'json' ? name : `${name}${suffix}`,
            )
          }
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
            saveFile(
              readableText(
                segments,
                limits,
                format,
                result.prediction_raw.metadata.provided_file_metadata.duration,
              ),
              format,
              `${name}${suffix}-readable`,
            )
          }
          className={buttonClass}
        >
          ⬇ Readable {format.toUpperCase()}
        </button>
      ))}
      {result.prediction_raw.chapters && (
        <>
          <button
            type="button"
            data-testid="download.chapters"
            title="0:00 Headline lines, for a video description"
            onClick={() =>
              saveFile(
                renderChapterLines(result.prediction_raw.chapters!),
                'txt',
                `${name}-chapters`,
              )
            }
            className={buttonClass}
          >
            ⬇ Chapters
          </button>
          <button
            type="button"
            data-testid="download.chapters-vtt"
            title="A WebVTT chapters track"
            onClick={() =>
              saveFile(
                renderVttChapters(
                  result.prediction_raw.chapters!,
                  result.prediction_raw.metadata.provided_file_metadata.duration,
                ),
                'vtt',
                `${name}-chapters`,
              )
            }
            className={buttonClass}
          >
            ⬇ Chapters VTT
          </button>
        </>
      )}
    </div>
  );
}
