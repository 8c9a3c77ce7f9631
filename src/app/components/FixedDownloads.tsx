import type { SubtitleCue } from '../../core/subtitles/cue';
import { renderCues } from '../../core/subtitles/write';
import { saveFile } from '../lib/download';

const linkClass =
  'text-xs font-medium text-indigo-800 underline focus-visible:outline-2 focus-visible:outline-indigo-600';

/**
 * Downloads of the checked cues with their fixes made: a file of the user's in its own format,
 * named after it; the readable subtitles as SRT and VTT.
 */
export function FixedDownloads({
  cues,
  name,
  own,
}: {
  cues: readonly SubtitleCue[];
  name: string;
  own: boolean;
}) {
  const base = name.replace(/\.(srt|vtt)$/i, '');
  const formats: ('srt' | 'vtt')[] = own ? [/\.vtt$/i.test(name) ? 'vtt' : 'srt'] : ['srt', 'vtt'];
  return (
    <>
      {formats.map((format) => (
        <button
          key={format}
          type="button"
          onClick={() => saveFile(renderCues(cues, format), format, `${base}-fixed`)}
          className={linkClass}
          data-testid={`check.download-${format}`}
        >
          Download the fixed {own ? 'file' : 'subtitles'} ({base}-fixed.{format})
        </button>
      ))}
    </>
  );
}
