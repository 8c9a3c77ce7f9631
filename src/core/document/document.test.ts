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

/** A line of a script nobody said, as alignment gives it: no time of its own, where it stands. */
function unsaid(text: string, at: number, speaker = 'speaker_not_activated'): Segment {
  return { ...segment(text, at, at, speaker), not_said: true };
}

/** An aligned script: its first and third lines never said, a long silence before the last. */
const aligned = response([
  unsaid('Good evening.', 0.5),
  segment('Welcome to the river walk.', 0.5, 2.4),
  unsaid('This line was cut.', 2.4),
  segment('Mind the *steps*.', 12, 14),
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
    expect(
      doc.blocks.map((b) =>
        b.kind === 'pause' ? 'pause' : b.kind === 'turn' ? b.speaker : b.headline,
      ),
    ).toEqual(['Anna', 'Tom', 'pause', 'Anna']);
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

describe('a line of a script nobody said', () => {
  it('is marked, never timed: a turn that opens with one shows its time at its first said line', () => {
    const doc = transcriptDocument(aligned, options());
    expect(doc.blocks.map((b) => b.kind)).toEqual(['turn', 'pause', 'turn']);
    const [first, last] = turns(doc);
    expect(first!.runs).toEqual([
      { time: null, text: 'Good evening.', notSaid: true },
      { time: 0.5, text: 'Welcome to the river walk.', notSaid: false },
      { time: null, text: 'This line was cut.', notSaid: true },
    ]);
    expect(last!.runs).toEqual([{ time: 12, text: 'Mind the *steps*.', notSaid: false }]);
    // The pause runs from the last words heard, not from where the unsaid line stands.
    expect(doc.blocks[1]).toMatchObject({ kind: 'pause', begin: 2.4, seconds: 9.6 });
  });

  it('takes no time at every segment or every N seconds; the next said line does', () => {
    const each = transcriptDocument(aligned, options({ timestamps: { at: 'segment' } }));
    expect(turns(each).map((t) => t.runs.map((r) => r.time))).toEqual([
      [null],
      [0.5],
      [null],
      [12],
    ]);
    const interval = transcriptDocument(
      aligned,
      options({ timestamps: { at: 'interval', seconds: 10 }, pauseSeconds: null }),
    );
    expect(turns(interval)[0]!.runs.map((r) => r.time)).toEqual([null, 0.5, null, 12]);
  });

  it('starts no pause and overlaps nobody', () => {
    const late = transcriptDocument(
      response([
        segment('Hello there.', 0, 3),
        unsaid('A line placed late.', 9),
        segment('Goodbye.', 9.5, 10),
      ]),
      options(),
    );
    // The silence is the one between the words heard, after the unsaid line.
    expect(late.blocks.map((b) => (b.kind === 'turn' ? b.runs.map((r) => r.text) : b))).toEqual([
      ['Hello there.', 'A line placed late.'],
      { kind: 'pause', begin: 3, seconds: 6.5 },
      ['Goodbye.'],
    ]);
    const other = transcriptDocument(
      response([
        segment('Hello there.', 0, 3, 'speaker_0'),
        unsaid('A line for the other speaker.', 1, 'speaker_1'),
      ]),
      options(),
    );
    expect(turns(other).map((t) => [t.speaker, t.overlaps])).toEqual([
      ['speaker_0', false],
      ['speaker_1', false],
    ]);
  });

  it('stands apart with a space in a language written without them', () => {
    const chinese = transcriptDocument(
      response([
        segment('你好。', 0, 1, 'a', 'zh'),
        { ...unsaid('没有说。', 1, 'a'), language: 'zh' },
        segment('谢谢。', 1.2, 2, 'a', 'zh'),
      ]),
      options({ timestamps: { at: 'none' } }),
    );
    expect(renderMarkdown(chinese)).toContain('**a:** 你好。 *(Not said: 没有说。)* 谢谢。');
  });
});

describe('renderMarkdown', () => {
  it('writes a line nobody said in italics, labelled, with no time', () => {
    expect(renderMarkdown(transcriptDocument(aligned, options()))).toBe(
      [
        '# River talk',
        '*(Not said: Good evening.)* [0:00] Welcome to the river walk. *(Not said: This line was cut.)*',
        '*(pause, 10 s)*',
        '[0:12] Mind the \\*steps\\*.',
      ].join('\n\n') + '\n',
    );
  });

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

describe('renderHtml and a line nobody said', () => {
  it('labels it in words, in grey italics, with no time element', () => {
    const html = renderHtml(
      transcriptDocument(
        response([segment('Heard <here>.', 1, 2), unsaid('Never <said> & gone.', 2)]),
        options(),
      ),
    );
    expect(html).toContain(
      '<p class="turn" lang="en" dir="ltr"><time datetime="PT1S">0:01</time> Heard &lt;here&gt;. ' +
        '<span class="not-said">(Not said: Never &lt;said&gt; &amp; gone.)</span></p>',
    );
    expect(html.match(/<time /g)).toHaveLength(1);
    expect(html).toContain('.pause, .overlap, .not-said { color: #475569; font-style: italic; }');
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

  it('writes a line nobody said labelled, in grey italics, with no time', async () => {
    const bytes = await renderDocx(transcriptDocument(aligned, options()));
    const dir = mkdtempSync(join(tmpdir(), 'murmur-docx-'));
    writeFileSync(join(dir, 'aligned.docx'), bytes);
    const xml = execFileSync('unzip', [
      '-p',
      join(dir, 'aligned.docx'),
      'word/document.xml',
    ]).toString('utf8');
    const paragraphs = [...xml.matchAll(/<w:p[ >][\s\S]*?<\/w:p>/g)].map((p) =>
      [...p[0].matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((t) => t[1]).join(''),
    );
    expect(paragraphs).toEqual([
      'River talk',
      '(Not said: Good evening.) [0:00] Welcome to the river walk. (Not said: This line was cut.)',
      '(pause, 10 s)',
      '[0:12] Mind the *steps*.',
    ]);
    // Each unsaid line is one run of its own, in italics and grey.
    const runs = [...xml.matchAll(/<w:r>([\s\S]*?)<\/w:r>/g)].map((r) => r[1]!);
    const marked = runs.filter((r) => r.includes('(Not said: '));
    expect(marked).toHaveLength(2);
    for (const run of marked) {
      expect(run).toMatch(/<w:i\/>|<w:i w:val="true"\/>/);
      expect(run).toContain('<w:color w:val="475569"/>');
    }
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

describe('a document with chapters and a summary', () => {
  const chaptered: TranscriptionResponse = {
    ...meeting,
    prediction_raw: {
      ...meeting.prediction_raw,
      chapters: [
        { ...chapterOf('Welcome', 0, 5), first_segment: 0, last_segment: 1 },
        { ...chapterOf('Rivers & thanks', 4.6, 15.5), first_segment: 2, last_segment: 3 },
      ],
      summarization: {
        type: 'general',
        text: 'Hello and welcome.\n\nThanks, Anna.',
        sentences: [
          { text: 'Hello and welcome.', time_begin: 0, time_end: 2.5 },
          { text: 'Thanks, Anna.', time_begin: 4.6, time_end: 6 },
        ],
      },
    },
  };

  it('opens with the summary and heads each chapter with its headline', () => {
    const doc = transcriptDocument(chaptered, options());
    expect(doc.summary).toEqual({
      points: false,
      paragraphs: ['Hello and welcome.', 'Thanks, Anna.'],
    });
    expect(doc.blocks.map((b) => (b.kind === 'turn' ? b.speaker : b.kind))).toEqual([
      'chapter',
      'Anna',
      'chapter',
      'Tom',
      'pause',
      'Anna',
    ]);
    expect(renderMarkdown(doc)).toBe(
      [
        '# River talk',
        '## Summary',
        'Hello and welcome.',
        'Thanks, Anna.',
        '## Welcome',
        '**Anna:** [0:00] Hello and welcome. Today we talk about rivers.',
        '## Rivers & thanks',
        '*(speaking over the previous speaker)* **Tom:** [0:04] Thanks, Anna.',
        '*(pause, 8 s)*',
        '**Anna:** [0:14] Let us start.',
      ].join('\n\n') + '\n',
    );
    const html = renderHtml(doc);
    expect(html).toContain(
      '<section class="summary">\n<h2>Summary</h2>\n<p>Hello and welcome.</p>',
    );
    expect(html).toContain('<h2><time datetime="PT4.6S">0:04</time> Rivers &amp; thanks</h2>');
  });

  it('writes bullet points as a list, and heads the transcript when no chapter does', async () => {
    const points: TranscriptionResponse = {
      ...meeting,
      prediction_raw: {
        ...meeting.prediction_raw,
        summarization: {
          type: 'bullet_points',
          text: '- Hello and welcome.\n- Let us start.',
          sentences: [
            { text: 'Hello and welcome.', time_begin: 0, time_end: 2.5 },
            { text: 'Let us start.', time_begin: 14, time_end: 15.5 },
          ],
        },
      },
    };
    const doc = transcriptDocument(points, options());
    const markdown = renderMarkdown(doc);
    expect(markdown).toContain(
      '## Summary\n\n- Hello and welcome.\n- Let us start.\n\n## Transcript\n\n**Anna:**',
    );
    expect(renderHtml(doc)).toContain(
      '<ul><li>Hello and welcome.</li><li>Let us start.</li></ul>\n</section>\n<h2>Transcript</h2>',
    );
    const file = join(mkdtempSync(join(tmpdir(), 'murmur-docx-')), 'points.docx');
    writeFileSync(file, await renderDocx(doc));
    const xml = execFileSync('unzip', ['-p', file, 'word/document.xml']).toString('utf8');
    expect(xml).toMatch(/Summary.*Hello and welcome\..*Let us start\..*Transcript.*Anna:/s);
    expect(xml).toContain('<w:numPr>');
  });
});

function chapterOf(headline: string, begin: number, end: number) {
  return { headline, gist: '', keywords: [], summary: '', time_begin: begin, time_end: end };
}

describe('a document with sentiment', () => {
  const shares = (positive: number, negative: number, neutral: number, seconds: number) => ({
    seconds,
    positive,
    negative,
    neutral,
    mixed: 0,
  });
  const sentence = (
    text: string,
    sentiment: 'positive' | 'negative' | 'neutral',
    begin: number,
    end: number,
    speaker: string,
  ) => ({
    text,
    sentiment,
    confidence: 0.5,
    emotion: null,
    emotion_confidence: null,
    time_begin: begin,
    time_end: end,
    channel: 'channel_0',
    speaker,
  });
  const felt: TranscriptionResponse = {
    ...meeting,
    prediction_raw: {
      ...meeting.prediction_raw,
      emotions: [
        sentence('Hello and welcome.', 'positive', 0, 2.5, 'Anna'),
        sentence('Today we talk about rivers.', 'neutral', 2.6, 5, 'Anna'),
        sentence('Thanks, Anna.', 'positive', 4.6, 6, 'Tom'),
        sentence('Let us start.', 'negative', 74, 75.5, 'Anna'),
      ],
      emotions_summary: {
        file: shares(0.5, 0.2, 0.3, 7.3),
        speakers: [
          { speaker: 'Anna', channel: 'channel_0', ...shares(0.4, 0.25, 0.35, 5.9) },
          { speaker: 'Tom', channel: 'channel_0', ...shares(1, 0, 0, 1.4) },
        ],
      },
    },
  };

  it('opens with the shares of time by speaker and the negative moments, in every format', async () => {
    const doc = transcriptDocument(felt, options());
    expect(doc.sentiment).toEqual({
      shares: [
        'Whole file: 50% positive · 20% negative · 30% neutral',
        'Anna: 40% positive · 25% negative · 35% neutral',
        'Tom: 100% positive',
      ],
      negativeMoments: ['[1:14] Anna: Let us start.'],
    });
    expect(renderMarkdown(doc)).toContain(
      '## Sentiment\n\n- Whole file: 50% positive · 20% negative · 30% neutral\n- Anna: 40% positive · 25% negative · 35% neutral\n- Tom: 100% positive\n\n### Negative moments\n\n- \\[1:14\\] Anna: Let us start.\n\n## Transcript\n\n**Anna:**',
    );
    expect(renderHtml(doc)).toContain(
      '<h3>Negative moments</h3>\n<ul><li>[1:14] Anna: Let us start.</li></ul>\n</section>\n<h2>Transcript</h2>',
    );
    const file = join(mkdtempSync(join(tmpdir(), 'murmur-docx-')), 'felt.docx');
    writeFileSync(file, await renderDocx(doc));
    const xml = execFileSync('unzip', ['-p', file, 'word/document.xml']).toString('utf8');
    expect(xml).toMatch(
      /Sentiment.*Whole file: 50% positive.*Negative moments.*Let us start\..*Transcript/s,
    );
  });

  it('leaves the sentiment out when asked to, and when the result has none', () => {
    expect(transcriptDocument(felt, options({ sentiment: false })).sentiment).toBeNull();
    expect(transcriptDocument(meeting, options()).sentiment).toBeNull();
    expect(renderMarkdown(transcriptDocument(felt, options({ sentiment: false })))).not.toContain(
      'Sentiment',
    );
  });
});
