import type { OutputFormat } from '../../core/contract/request';
import type { TranscriptionResponse } from '../../core/contract/response';
import type { Segment } from '../../core/contract/response';
import { renderPrediction } from '../../core/format/prediction';
import { readableCues, type CueLimits } from '../../core/format/readable-cues';
import { renderReadableSrt, renderReadableVtt } from '../../core/format/readable-subtitles';

const MIME: Record<OutputFormat, string> = {
  json: 'application/json',
  srt: 'application/x-subrip',
  vtt: 'text/vtt',
  txt: 'text/plain',
};

/** The file a download button saves: the formats' `prediction` text, or the whole JSON. */
export function downloadText(response: TranscriptionResponse, format: OutputFormat): string {
  return format === 'json'
    ? `${JSON.stringify(response, null, 2)}\n`
    : renderPrediction(response.prediction_raw.transcription, format);
}

/** Subtitles that read well (cues within `limits`), for the readable downloads. */
export function readableText(
  segments: readonly Segment[],
  limits: CueLimits,
  format: 'srt' | 'vtt',
  mediaDuration: number,
): string {
  const cues = readableCues(segments, limits, mediaDuration);
  return format === 'srt' ? renderReadableSrt(cues) : renderReadableVtt(cues, segments);
}

export function saveFile(text: string, format: OutputFormat, baseName: string): void {
  const blob = new Blob([text], { type: `${MIME[format]};charset=utf-8` });
  saveBlob(blob, `${baseName}.${format}`);
}

/** Saves a blob as a download named `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
