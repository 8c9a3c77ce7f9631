import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { Segment, TranscriptionResponse } from '../src/core/contract/response';
import { seriousViolations } from './fixtures/axe';
import { fixtureResponse } from './fixtures/response';
import { AppPage } from './pages/app-page';

/** The fixture's segments given to two speakers, the second over the first's end. */
function twoSpeakers(): TranscriptionResponse {
  const response = fixtureResponse();
  const segments: Segment[] = response.prediction_raw.transcription.map((s, i) => ({
    ...s,
    speaker: i === 1 ? 'speaker_1' : 'speaker_0',
  }));
  segments[1]!.time_begin = segments[0]!.time_end - 0.4;
  return { ...response, prediction_raw: { ...response.prediction_raw, transcription: segments } };
}

const clock = (s: number) => `${Math.floor(s / 60)}:${String(Math.floor(s % 60)).padStart(2, '0')}`;

test('downloads the result as Word, a web page and Markdown, as the options say', async ({
  page,
}, info) => {
  const response = twoSpeakers();
  const segments = response.prediction_raw.transcription;
  mkdirSync(info.outputDir, { recursive: true });
  const saved = info.outputPath('panel.json');
  writeFileSync(saved, JSON.stringify(response));
  const app = new AppPage(page);
  await app.goto();
  await app.openSavedResult(saved);
  await expect(app.byId('result.title')).toHaveText('panel');
  await app.byId('documents').locator('summary').click();
  await app.byId('documents.times').selectOption('segment');

  // Markdown: every segment with its speaker and time, the overlap marked.
  const md = readFileSync(await (await app.download('markdown')).path(), 'utf8');
  expect(md.startsWith('# panel\n')).toBe(true);
  for (const s of segments) {
    expect(md).toContain(
      `[${clock(s.time_begin)}] ${s.transcription.trim().replace(/([*_[\]])/g, '\\$1')}`,
    );
  }
  // Markdown's own characters are escaped (it reads as speaker_0).
  expect(md).toContain('**speaker\\_0:**');
  expect(md).toContain('*(speaking over the previous speaker)* **speaker\\_1:**');

  // DOCX, read back with unzip: the same words in order.
  const docx = await app.download('docx');
  expect(docx.suggestedFilename()).toBe('panel.docx');
  const xml = execFileSync('unzip', ['-p', await docx.path(), 'word/document.xml']).toString(
    'utf8',
  );
  const text = [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)]
    .map((t) => t[1])
    .join('')
    .replace(/&apos;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
  let at = 0;
  for (const s of segments) {
    const found = text.indexOf(s.transcription.trim(), at);
    expect(found, s.transcription).toBeGreaterThanOrEqual(at);
    at = found;
  }

  // Names off: no speaker in the web page; it opens in the browser on its own, axe-clean.
  await app.byId('documents.speaker-names').uncheck();
  const html = await app.download('html');
  const htmlText = readFileSync(await html.path(), 'utf8');
  expect(htmlText).not.toContain('speaker_0');
  const reader = await page.context().newPage();
  // Opened as a file is (the download's own path has no extension for the browser to go by).
  await reader.setContent(htmlText);
  await expect(reader.locator('h1')).toHaveText('panel');
  await expect(reader.locator('p.turn')).toHaveCount(segments.length);
  await expect(reader.locator('time').first()).toHaveText(clock(segments[0]!.time_begin));
  expect(await seriousViolations(reader), 'the exported page').toEqual([]);
  await reader.screenshot({ path: 'test-results/screens/document-page.png' });
  await reader.close();
  expect(await seriousViolations(page), 'the documents options').toEqual([]);
  await app.byId('documents').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screens/documents.png' });
});

test('prints the document alone, with none of the page around it', async ({ page }, info) => {
  mkdirSync(info.outputDir, { recursive: true });
  const saved = info.outputPath('panel.json');
  writeFileSync(saved, JSON.stringify(twoSpeakers()));
  const app = new AppPage(page);
  await app.goto();
  await app.openSavedResult(saved);
  await app.byId('documents').locator('summary').click();
  await app.byId('download.print').click();
  const frame = page.frameLocator('[data-testid="download.print-frame"]');
  await expect(frame.locator('h1')).toHaveText('panel');
  await expect(frame.locator('button, input, select')).toHaveCount(0);
  await expect(frame.locator('p.turn')).toHaveCount(3);
});
