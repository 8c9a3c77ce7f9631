import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Segment, TranscriptionResponse } from '../contract/response';
import { renderDocx } from './docx';
import { renderHtml } from './html';
import { renderMarkdown } from './markdown';
import {
  DEFAULT_DOCUMENT_OPTIONS,
  transcriptDocument,
  type DocumentOptions,
  type Turn,
} from './transcript-document';

function segment(
  text: string,
  begin: number,
  end: number,
  speaker = 'speaker_not_activated',
  language = 'en',
): Segment {
  return {
    words: [],
    transcription: ` ${text}`,
    language,
    time_begin: begin,
    time_end: end,
    speaker,
    channel: 'channel_0',
  };
}

function response(segments: Segment[]): TranscriptionResponse {
  return {
    prediction: '',
    prediction_raw: { transcription: segments, metadata: {} as never, speaker_mapping: [] },
  };
}

/** Anna (speaker_0) twice, Tom over her end, a long pause, Anna again. */
const meeting = response([
  segment('Hello and welcome.', 0, 2.5, 'Anna'),
  segment('Today we talk about rivers.', 2.6, 5, 'Anna'),
  segment('Thanks, Anna.', 4.6, 6, 'Tom'),
  segment('Let us start.', 14, 15.5, 'Anna'),
]);

const options = (extra: Partial<DocumentOptions> = {}): DocumentOptions => ({
  ...DEFAULT_DOCUMENT_OPTIONS,
  title: 'River talk',
  ...extra,
});

const turns = (doc: ReturnType<typeof transcriptDocument>) =>
  doc.blocks.filter((b): b is Turn => b.kind === 'turn');

describe('transcriptDocument', () => {
  it('makes a turn of each speaker change, marks the overlap and the long pause', () => {
    const doc = transcriptDocument(meeting, options());
    expect(doc.blocks.map((b) => (b.kind === 'pause' ? 'pause' : b.speaker))).toEqual([
      'Anna',
      'Tom',
      'pause',
      'Anna',
    ]);
    const [anna, tom] = turns(doc);
    expect(anna!.runs.map((r) => [r.time, r.text])).toEqual([
      [0, 'Hello and welcome.'],
      [null, 'Today we talk about rivers.'],
    ]);
    expect(tom!.overlaps).toBe(true);
    expect(anna!.overlaps).toBe(false);
    const pause = doc.blocks[2];
    expect(pause).toMatchObject({ kind: 'pause', begin: 6, seconds: 8 });
  });

  it('shows a time at every segment, or every N seconds, as asked', () => {
    const each = transcriptDocument(meeting, options({ timestamps: { at: 'segment' } }));
    expect(turns(each).flatMap((t) => t.runs.map((r) => r.time))).toEqual([0, 2.6, 4.6, 14]);
    const interval = transcriptDocument(
      response([0, 4, 8, 12, 16].map((t) => segment(`Words at ${t}.`, t, t + 3.5))),
      options({ timestamps: { at: 'interval', seconds: 10 }, pauseSeconds: null }),
    );
    expect(turns(interval)).toHaveLength(1);
    expect(turns(interval)[0]!.runs.map((r) => r.time)).toEqual([0, null, null, 12, null]);
    const none = transcriptDocument(meeting, options({ timestamps: { at: 'none' } }));
    expect(turns(none).flatMap((t) => t.runs.map((r) => r.time))).toEqual([null, null, null, null]);
  });

  it('leaves names, pauses and overlaps out when asked', () => {
    const doc = transcriptDocument(
      meeting,
      options({ speakerNames: false, pauseSeconds: null, markOverlaps: false }),
    );
    expect(doc.blocks.every((b) => b.kind === 'turn' && b.speaker === null && !b.overlaps)).toBe(
      true,
    );
    // Without names the turns still follow the speakers.
    expect(doc.blocks).toHaveLength(3);
  });

  it('writes right-to-left turns right to left, and joins Chinese without spaces', () => {
    const doc = transcriptDocument(
      response([
        segment('مرحبا بكم', 0, 2, 'speaker_not_activated', 'ar'),
        segment('شكرا', 2.2, 3, 'speaker_not_activated', 'ar'),
      ]),
      options(),
    );
    expect(doc.direction).toBe('rtl');
    expect(doc.language).toBe('ar');
    const html = renderHtml(doc);
    expect(html).toContain('<html lang="ar" dir="rtl">');
    expect(html).toContain('<p class="turn" lang="ar" dir="rtl">');
    const chinese = transcriptDocument(
      response([segment('你好。', 0, 1, 'a', 'zh'), segment('谢谢。', 1.2, 2, 'a', 'zh')]),
      options({ timestamps: { at: 'none' } }),
    );
    expect(renderMarkdown(chinese)).toContain('**a:** 你好。谢谢。');
  });
});

describe('renderMarkdown', () => {
  it('writes a heading, a paragraph a turn, pauses and overlaps, markup escaped', () => {
    const md = renderMarkdown(
      transcriptDocument(
        response([
          ...meeting.prediction_raw.transcription,
          segment('Use *stars* [1]', 16, 17, 'Tom'),
        ]),
        options(),
      ),
    );
    expect(md).toBe(
      [
        '# River talk',
        '**Anna:** [0:00] Hello and welcome. Today we talk about rivers.',
        '*(speaking over the previous speaker)* **Tom:** [0:04] Thanks, Anna.',
        '*(pause, 8 s)*',
        '**Anna:** [0:14] Let us start.',
        '**Tom:** [0:16] Use \\*stars\\* \\[1\\]',
      ].join('\n\n') + '\n',
    );
  });
});

describe('renderHtml', () => {
  it('is one self-contained page: speakers in their colours, times, text escaped', () => {
    const html = renderHtml(
      transcriptDocument(
        response([segment('<b>bold</b> & co', 65, 70, 'speaker_1')]),
        options({ title: 'A & B' }),
      ),
    );
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).toContain('<title>A &amp; B</title>');
    expect(html).toContain('&lt;b&gt;bold&lt;/b&gt; &amp; co');
    expect(html).toContain('style="background:#d1fae5;color:#064e3b">speaker_1</span>');
    expect(html).toContain('<time datetime="PT65S">1:05</time>');
    expect(html).not.toMatch(/<(script|link)\b|src=|href=/);
    expect(html).toContain('@media print');
  });
});

describe('renderDocx', () => {
  it('is a Word document whose text holds every turn, speaker and time in order', async () => {
    const bytes = await renderDocx(transcriptDocument(meeting, options()));
    const dir = mkdtempSync(join(tmpdir(), 'murmur-docx-'));
    const file = join(dir, 'talk.docx');
    writeFileSync(file, bytes);
    // An independent reader: unzip and the document's XML.
    const xml = execFileSync('unzip', ['-p', file, 'word/document.xml']).toString('utf8');
    const paragraphs = [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map((p) =>
      [...p[0].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((t) => t[1]).join(''),
    );
    expect(paragraphs).toEqual([
      'River talk',
      'Anna: [0:00] Hello and welcome. Today we talk about rivers.',
      '(speaking over the previous speaker) Tom: [0:04] Thanks, Anna.',
      '(pause, 8 s)',
      'Anna: [0:14] Let us start.',
    ]);
    expect(xml).toContain('w:bidi');
    const core = execFileSync('unzip', ['-p', file, 'docProps/core.xml']).toString('utf8');
    expect(core).toContain('River talk');
  });

  it('marks right-to-left paragraphs and runs', async () => {
    const bytes = await renderDocx(
      transcriptDocument(
        response([segment('שלום', 0, 1, 'speaker_not_activated', 'he')]),
        options(),
      ),
    );
    const dir = mkdtempSync(join(tmpdir(), 'murmur-docx-'));
    writeFileSync(join(dir, 'he.docx'), bytes);
    const xml = execFileSync('unzip', ['-p', join(dir, 'he.docx'), 'word/document.xml']).toString(
      'utf8',
    );
    expect(xml).toMatch(/<w:bidi\/>|<w:bidi w:val="true"\/>|<w:bidi>/);
    expect(xml).toContain('<w:rtl');
    expect(xml).toContain('שלום');
  });
});
