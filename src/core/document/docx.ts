import { Document, HeadingLevel, Packer, Paragraph, TextRun } from 'docx';
import { speakerInk } from './speaker-palette';
import {
  clockTime,
  runJoiner,
  notSaidText,
  OVERLAP_TEXT,
  pauseText,
  NEGATIVE_MOMENTS_HEADING,
  SENTIMENT_HEADING,
  SUMMARY_HEADING,
  transcriptHeading,
  type Block,
  type Turn,
  type TranscriptDocument,
} from './transcript-document';

const GREY = '475569';
const EAST_ASIAN = new Set(['zh', 'ja', 'ko', 'yue']);

/** Word's language tag for a run: the east Asian and bidirectional slots where they apply. */
function languageOf(code: string, direction: 'ltr' | 'rtl') {
  if (EAST_ASIAN.has(code)) return { eastAsia: code };
  if (direction === 'rtl') return { bidirectional: code };
  return { value: code };
}

function turnParagraph(turn: Turn): Paragraph {
  const rtl = turn.direction === 'rtl';
  const language = languageOf(turn.language, turn.direction);
  const runs: TextRun[] = [];
  if (turn.overlaps) {
    runs.push(
      new TextRun({ text: `${OVERLAP_TEXT} `, italics: true, color: GREY, rightToLeft: rtl }),
    );
  }
  if (turn.speaker !== null) {
    const ink = speakerInk(turn.speakerKey);
    runs.push(
      new TextRun({
        text: `${turn.speaker}:`,
        bold: true,
        color: ink.text.slice(1),
        shading: { type: 'clear', color: 'auto', fill: ink.background.slice(1) },
        rightToLeft: rtl,
      }),
      new TextRun({ text: ' ', rightToLeft: rtl }),
    );
  }
  turn.runs.forEach((run, i) => {
    const before = i > 0 ? runJoiner(turn.language, turn.runs[i - 1]!, run) : '';
    if (run.notSaid) {
      runs.push(
        new TextRun({
          text: `${before}${notSaidText(run.text)}`,
          italics: true,
          color: GREY,
          language,
          rightToLeft: rtl,
        }),
      );
      return;
    }
    if (run.time !== null) {
      runs.push(
        new TextRun({ text: `${before}[${clockTime(run.time)}] `, color: GREY, rightToLeft: rtl }),
      );
    }
    runs.push(
      new TextRun({
        text: run.time === null ? `${before}${run.text}` : run.text,
        language,
        rightToLeft: rtl,
      }),
    );
  });
  return new Paragraph({ children: runs, bidirectional: rtl, spacing: { after: 160 } });
}

function blockParagraph(block: Block, rtl: boolean): Paragraph {
  if (block.kind === 'turn') return turnParagraph(block);
  if (block.kind === 'chapter') {
    return new Paragraph({
      text: `${clockTime(block.begin)} ${block.headline}`,
      heading: HeadingLevel.HEADING_1,
      bidirectional: rtl,
    });
  }
  return new Paragraph({
    children: [new TextRun({ text: pauseText(block.seconds), italics: true, color: GREY })],
    bidirectional: rtl,
    spacing: { after: 160 },
  });
}

function sentimentParagraphs(doc: TranscriptDocument, rtl: boolean): Paragraph[] {
  if (doc.sentiment === null) return [];
  const item = (text: string) =>
    new Paragraph({ text, bidirectional: rtl, spacing: { after: 80 }, bullet: { level: 0 } });
  return [
    new Paragraph({ text: SENTIMENT_HEADING, heading: HeadingLevel.HEADING_1, bidirectional: rtl }),
    ...doc.sentiment.shares.map(item),
    ...(doc.sentiment.negativeMoments.length > 0
      ? [
          new Paragraph({
            text: NEGATIVE_MOMENTS_HEADING,
            heading: HeadingLevel.HEADING_2,
            bidirectional: rtl,
          }),
          ...doc.sentiment.negativeMoments.map(item),
        ]
      : []),
  ];
}

function summaryParagraphs(doc: TranscriptDocument, rtl: boolean): Paragraph[] {
  if (doc.summary === null) return [];
  return [
    new Paragraph({ text: SUMMARY_HEADING, heading: HeadingLevel.HEADING_1, bidirectional: rtl }),
    ...doc.summary.paragraphs.map(
      (text) =>
        new Paragraph({
          text,
          bidirectional: rtl,
          spacing: { after: 160 },
          ...(doc.summary!.points ? { bullet: { level: 0 } } : {}),
        }),
    ),
  ];
}

function transcriptHeadingParagraphs(doc: TranscriptDocument, rtl: boolean): Paragraph[] {
  const heading = transcriptHeading(doc);
  return heading === null
    ? []
    : [new Paragraph({ text: heading, heading: HeadingLevel.HEADING_1, bidirectional: rtl })];
}

/**
 * The transcript as a Word document (DOCX): a title, a paragraph a turn, pauses and lines nobody
 * said in grey italics.
 */
export async function renderDocx(doc: TranscriptDocument): Promise<Uint8Array> {
  const rtl = doc.direction === 'rtl';
  const paragraphs = [
    new Paragraph({ text: doc.title, heading: HeadingLevel.TITLE, bidirectional: rtl }),
    ...summaryParagraphs(doc, rtl),
    ...sentimentParagraphs(doc, rtl),
    ...transcriptHeadingParagraphs(doc, rtl),
    ...doc.blocks.map((block) => blockParagraph(block, rtl)),
  ];
  const document = new Document({
    title: doc.title,
    creator: 'Murmur',
    sections: [{ children: paragraphs }],
  });
  return new Uint8Array(await Packer.toArrayBuffer(document));
}
