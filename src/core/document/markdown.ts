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
  type TextRun,
  type TranscriptDocument,
} from './transcript-document';

/** Characters Markdown would read as markup, escaped so the text shows as it was said. */
function escape(text: string): string {
  return text.replace(/([\\`*_[\]<>#|~])/g, '\\$1');
}

function runText(run: TextRun): string {
  if (run.notSaid) return `*${notSaidText(escape(run.text))}*`;
  return (run.time === null ? '' : `[${clockTime(run.time)}] `) + escape(run.text);
}

/**
 * The transcript as Markdown: a heading, the summary and the sentiment when there are, a paragraph a turn
 * under its chapter's heading, pauses and lines nobody said in italics.
 */
export function renderMarkdown(doc: TranscriptDocument): string {
  const lines = [`# ${escape(doc.title)}`];
  if (doc.summary !== null) {
    lines.push(`## ${SUMMARY_HEADING}`);
    if (doc.summary.points)
      lines.push(doc.summary.paragraphs.map((p) => `- ${escape(p)}`).join('\n'));
    else lines.push(...doc.summary.paragraphs.map(escape));
  }
  if (doc.sentiment !== null) {
    lines.push(`## ${SENTIMENT_HEADING}`);
    lines.push(doc.sentiment.shares.map((s) => `- ${escape(s)}`).join('\n'));
    if (doc.sentiment.negativeMoments.length > 0) {
      lines.push(`### ${NEGATIVE_MOMENTS_HEADING}`);
      lines.push(doc.sentiment.negativeMoments.map((s) => `- ${escape(s)}`).join('\n'));
    }
  }
  const heading = transcriptHeading(doc);
  if (heading !== null) lines.push(`## ${heading}`);
  for (const block of doc.blocks) {
    if (block.kind === 'chapter') {
      lines.push(`## ${escape(block.headline)}`);
      continue;
    }
    if (block.kind === 'pause') {
      lines.push(`*${pauseText(block.seconds)}*`);
      continue;
    }
    const parts: string[] = [];
    if (block.overlaps) parts.push(`*${OVERLAP_TEXT}*`);
    if (block.speaker !== null) parts.push(`**${escape(block.speaker)}:**`);
    parts.push(joinRuns(block, runText));
    lines.push(parts.join(' '));
  }
  return `${lines.join('\n\n')}\n`;
}
