import type { TranscriptionResponse } from '../../core/contract/response';
import { renderHtml } from '../../core/document/html';
import { renderMarkdown } from '../../core/document/markdown';
import {
  transcriptDocument,
  type DocumentOptions,
  type TimestampRule,
} from '../../core/document/transcript-document';

export type DocumentFormat = 'docx' | 'html' | 'md';

const TYPES: Record<DocumentFormat, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  html: 'text/html;charset=utf-8',
  md: 'text/markdown;charset=utf-8',
};

/** The choices the page offers for where times go, by the value of its select. */
export const TIMESTAMP_CHOICES: { value: string; label: string; rule: TimestampRule }[] = [
  { value: 'speaker', label: 'At each change of speaker', rule: { at: 'speaker-change' } },
  { value: 'segment', label: 'At every segment', rule: { at: 'segment' } },
  { value: '30', label: 'Every 30 seconds', rule: { at: 'interval', seconds: 30 } },
  { value: '60', label: 'Every minute', rule: { at: 'interval', seconds: 60 } },
  { value: 'none', label: 'No times', rule: { at: 'none' } },
];

/** The pauses the page can mark, by the value of its select (seconds, or none). */
export const PAUSE_CHOICES: { value: string; label: string; seconds: number | null }[] = [
  { value: '2', label: 'Longer than 2 seconds', seconds: 2 },
  { value: '5', label: 'Longer than 5 seconds', seconds: 5 },
  { value: '10', label: 'Longer than 10 seconds', seconds: 10 },
  { value: 'none', label: 'Not marked', seconds: null },
];

function save(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * The Word writer, a large library the page needs only for DOCX: a chunk of its own, fetched on
 * the first DOCX (or by Make available offline), never on a first visit.
 */
export function loadDocxWriter() {
  return import('../../core/document/docx');
}

/** Saves the result as a document in `format`. */
export async function saveDocument(
  result: TranscriptionResponse,
  name: string,
  format: DocumentFormat,
  options: Omit<DocumentOptions, 'title'>,
): Promise<void> {
  const doc = transcriptDocument(result, { ...options, title: name });
  const body =
    format === 'docx'
      ? await (await loadDocxWriter()).renderDocx(doc)
      : format === 'html'
        ? renderHtml(doc)
        : renderMarkdown(doc);
  save(new Blob([body as BlobPart], { type: TYPES[format] }), `${name}.${format}`);
}

/**
 * Prints the document (the browser's print dialog saves it as PDF): the self-contained page in
 * a frame of its own, so that its print stylesheet applies and none of the app's controls print.
 */
export function printDocument(
  result: TranscriptionResponse,
  name: string,
  options: Omit<DocumentOptions, 'title'>,
): HTMLIFrameElement {
  const frame = document.createElement('iframe');
  frame.title = `${name}, for printing`;
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  frame.style.cssText = 'position:fixed;width:0;height:0;border:0;right:0;bottom:0';
  frame.dataset.testid = 'download.print-frame';
  frame.srcdoc = renderHtml(transcriptDocument(result, { ...options, title: name }));
  frame.addEventListener('load', () => {
    frame.contentWindow?.print();
  });
  document.querySelector('[data-testid="download.print-frame"]')?.remove();
  document.body.append(frame);
  return frame;
}
