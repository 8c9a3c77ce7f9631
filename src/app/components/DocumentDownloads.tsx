import { useState } from 'react';
import type { TranscriptionResponse } from '../../core/contract/response';
import { DEFAULT_DOCUMENT_OPTIONS } from '../../core/document/transcript-document';
import {
  PAUSE_CHOICES,
  printDocument,
  saveDocument,
  TIMESTAMP_CHOICES,
  type DocumentFormat,
} from '../lib/document-download';

const buttonClass =
  'rounded-lg bg-white px-3 py-1.5 text-sm font-medium text-slate-800 shadow-sm ring-1 ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';
const selectClass =
  'mt-1 block w-full rounded-lg bg-white px-2 py-1.5 text-sm ring-1 ring-slate-300';

const FORMATS: { format: DocumentFormat; label: string }[] = [
  { format: 'docx', label: 'Word (DOCX)' },
  { format: 'html', label: 'Web page (HTML)' },
  { format: 'md', label: 'Markdown' },
];

/** The corrected result as a document to read, share or print, with times where asked. */
export function DocumentDownloads({
  result,
  name,
}: {
  result: TranscriptionResponse;
  name: string;
}) {
  const [times, setTimes] = useState('speaker');
  const [pauses, setPauses] = useState('5');
  const [speakerNames, setSpeakerNames] = useState(DEFAULT_DOCUMENT_OPTIONS.speakerNames);
  const [overlaps, setOverlaps] = useState(DEFAULT_DOCUMENT_OPTIONS.markOverlaps);
  const [sentiment, setSentiment] = useState(DEFAULT_DOCUMENT_OPTIONS.sentiment);
  const hasSentiment = result.prediction_raw.emotions !== undefined;
  const options = {
    timestamps: (TIMESTAMP_CHOICES.find((c) => c.value === times) ?? TIMESTAMP_CHOICES[0]!).rule,
    pauseSeconds: PAUSE_CHOICES.find((c) => c.value === pauses)?.seconds ?? null,
    speakerNames,
    markOverlaps: overlaps,
    sentiment,
  };
  return (
    <details className="rounded-xl ring-1 ring-slate-200" data-testid="documents">
      <summary className="cursor-pointer rounded-xl px-3 py-2 text-sm font-medium text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-600">
        Documents (Word, web page, Markdown, print or PDF)
      </summary>
      <div className="space-y-3 px-3 pb-3">
        <div className="grid gap-3 sm:grid-cols-2">
          <label className="text-xs font-medium text-slate-800">
            Times
            <select
              className={selectClass}
              value={times}
              data-testid="documents.times"
              onChange={(e) => setTimes(e.target.value)}
            >
              {TIMESTAMP_CHOICES.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
          <label className="text-xs font-medium text-slate-800">
            Mark pauses
            <select
              className={selectClass}
              value={pauses}
              data-testid="documents.pauses"
              onChange={(e) => setPauses(e.target.value)}
            >
              {PAUSE_CHOICES.map((c) => (
                <option key={c.value} value={c.value}>
                  {c.label}
                </option>
              ))}
            </select>
          </label>
          <label className="flex items-center gap-2 text-xs font-medium text-slate-800">
            <input
              type="checkbox"
              checked={speakerNames}
              onChange={(e) => setSpeakerNames(e.target.checked)}
              className="h-4 w-4 accent-indigo-700"
              data-testid="documents.speaker-names"
            />
            Begin each turn with its speaker’s name (when speakers are told apart)
          </label>
          <label className="flex items-center gap-2 text-xs font-medium text-slate-800">
            <input
              type="checkbox"
              checked={overlaps}
              onChange={(e) => setOverlaps(e.target.checked)}
              className="h-4 w-4 accent-indigo-700"
              data-testid="documents.overlaps"
            />
            Mark speech over the previous speaker
          </label>
          {hasSentiment && (
            <label className="flex items-center gap-2 text-xs font-medium text-slate-800">
              <input
                type="checkbox"
                checked={sentiment}
                onChange={(e) => setSentiment(e.target.checked)}
                className="h-4 w-4 accent-indigo-700"
                data-testid="documents.sentiment"
              />
              Open with the sentiment: shares by speaker and the negative moments
            </label>
          )}
        </div>
        <div className="flex flex-wrap gap-2" role="group" aria-label="Documents">
          {FORMATS.map(({ format, label }) => (
            <button
              key={format}
              type="button"
              data-testid={`download.${format === 'md' ? 'markdown' : format}`}
              className={buttonClass}
              onClick={() => void saveDocument(result, name, format, options)}
            >
              ⬇ {label}
            </button>
          ))}
          <button
            type="button"
            data-testid="download.print"
            className={buttonClass}
            onClick={() => printDocument(result, name, options)}
          >
            Print / Save as PDF
          </button>
        </div>
      </div>
    </details>
  );
}
