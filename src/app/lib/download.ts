import type { OutputFormat } from '../../core/contract/request';
import type { TranscriptionResponse } from '../../core/contract/response';
import { renderSrt } from '../../core/format/srt';
import { renderTxt } from '../../core/format/txt';
import { renderVtt } from '../../core/format/vtt';

const MIME: Record<OutputFormat, string> = {
  json: 'application/json',
  srt: 'application/x-subrip',
  vtt: 'text/vtt',
  txt: 'text/plain',
};

/** The file a download button saves: subtitles and text from the segments, JSON whole. */
export function downloadText(response: TranscriptionResponse, format: OutputFormat): string {
  const segments = response.prediction_raw.transcription;
  switch (format) {
    case 'srt':
      return renderSrt(segments);
    case 'vtt':
      return renderVtt(segments);
    case 'txt':
      return renderTxt(segments);
    case 'json':
      return `${JSON.stringify(response, null, 2)}\n`;
  }
}

export function saveFile(text: string, format: OutputFormat, baseName: string): void {
  const blob = new Blob([text], { type: `${MIME[format]};charset=utf-8` });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `${baseName}.${format}`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
