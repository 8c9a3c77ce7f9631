import { speakerInk } from './speaker-palette';
import {
  clockTime,
  joinRuns,
  notSaidText,
  OVERLAP_TEXT,
  pauseText,
  NEGATIVE_MOMENTS_HEADING,
  SENTIMENT_HEADING,
  SUMMARY_HEADING,
  transcriptHeading,
  type Block,
  type DocumentSentiment,
  type DocumentSummary,
  type TextRun,
  type Turn,
  type TranscriptDocument,
} from './transcript-document';

function escape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** `PT1M5S`-style durations for `<time datetime>`. */
function isoDuration(seconds: number): string {
  return `PT${Math.max(0, Math.round(seconds * 1000) / 1000)}S`;
}

function time(seconds: number): string {
  return `<time datetime="${isoDuration(seconds)}">${clockTime(seconds)}</time>`;
}

function runHtml(run: TextRun): string {
  // Said in words, not by the grey alone: the label is text a screen reader reads.
  if (run.notSaid) return `<span class="not-said">${escape(notSaidText(run.text))}</span>`;
  return (run.time === null ? '' : `${time(run.time)} `) + escape(run.text);
}

function turnHtml(turn: Turn): string {
  const parts: string[] = [];
  if (turn.overlaps) parts.push(`<span class="overlap">${OVERLAP_TEXT}</span>`);
  if (turn.speaker !== null) {
    const ink = speakerInk(turn.speakerKey);
    parts.push(
      `<span class="speaker" style="background:${ink.background};color:${ink.text}">${escape(turn.speaker)}</span>`,
    );
  }
  parts.push(joinRuns(turn, runHtml));
  return `<p class="turn" lang="${escape(turn.language)}" dir="${turn.direction}">${parts.join(' ')}</p>`;
}

function blockHtml(block: Block): string {
  if (block.kind === 'pause') return `<p class="pause">${pauseText(block.seconds)}</p>`;
  if (block.kind === 'chapter') return `<h2>${time(block.begin)} ${escape(block.headline)}</h2>`;
  return turnHtml(block);
}

function summaryHtml(summary: DocumentSummary): string[] {
  const body = summary.points
    ? [`<ul>${summary.paragraphs.map((p) => `<li>${escape(p)}</li>`).join('')}</ul>`]
    : summary.paragraphs.map((p) => `<p>${escape(p)}</p>`);
  return [`<section class="summary">`, `<h2>${SUMMARY_HEADING}</h2>`, ...body, '</section>'];
}

function sentimentHtml(sentiment: DocumentSentiment): string[] {
  const list = (lines: readonly string[]) =>
    `<ul>${lines.map((l) => `<li>${escape(l)}</li>`).join('')}</ul>`;
  return [
    `<section class="summary">`,
    `<h2>${SENTIMENT_HEADING}</h2>`,
    list(sentiment.shares),
    ...(sentiment.negativeMoments.length > 0
      ? [`<h3>${NEGATIVE_MOMENTS_HEADING}</h3>`, list(sentiment.negativeMoments)]
      : []),
    '</section>',
  ];
}

const STYLE = `
body { font: 1rem/1.6 system-ui, sans-serif; color: #0f172a; background: #fff; margin: 0; }
main { max-width: 46rem; margin: 0 auto; padding: 2rem 1.25rem; }
h1 { font-size: 1.6rem; margin: 0 0 1.5rem; }
h2 { font-size: 1.2rem; margin: 2rem 0 0.75rem; }
.summary { border-bottom: 1px solid #cbd5e1; margin-bottom: 1.5rem; }
.turn { margin: 0 0 1rem; overflow-wrap: anywhere; }
.speaker { font-weight: 600; border-radius: 0.4rem; padding: 0.05rem 0.4rem; }
time { color: #475569; font-variant-numeric: tabular-nums; font-size: 0.9em; }
.pause, .overlap, .not-said { color: #475569; font-style: italic; }
@media print {
  main { max-width: none; padding: 0; }
  .turn { break-inside: avoid; }
  .speaker { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
}
`;

/**
 * The transcript as one self-contained HTML file (its style inline, nothing fetched): readable
 * in any browser without the app, printable, each turn in its language and direction.
 */
export function renderHtml(doc: TranscriptDocument): string {
  const heading = transcriptHeading(doc);
  const body = [
    ...(doc.summary !== null ? summaryHtml(doc.summary) : []),
    ...(doc.sentiment !== null ? sentimentHtml(doc.sentiment) : []),
    ...(heading !== null ? [`<h2>${heading}</h2>`] : []),
    ...doc.blocks.map(blockHtml),
  ];
  return [
    '<!doctype html>',
    `<html lang="${escape(doc.language)}" dir="${doc.direction}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escape(doc.title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    '<body>',
    '<main>',
    `<h1>${escape(doc.title)}</h1>`,
    ...body,
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
