import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { sentence } from '../tools/testing/speech';
import { timedSpeech } from '../tools/testing/timed-speech';
import type { TranscriptionResponse } from '../src/core/contract/response';
import { seriousViolations } from './fixtures/axe';
import { spokenFile } from '../tools/testing/speech';
import { useLocalModels } from './fixtures/test-models';
import { AppPage } from './pages/app-page';

/**
 * Timing a text the user already has, in the browser (WASM, the q8 test model): the words come
 * back exactly as typed, one segment per sentence, each word timed to the media.
 */
test.describe('time a text I already have', () => {
  test.setTimeout(180_000);

  test('keeps every word as written, times them to the media, and asks for words when there are none', async ({
    page,
    baseURL,
  }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const first = sentence('en', 2201, 7);
    const second = sentence('en', 2202, 8);
    const text = `${first[0]!.toUpperCase()}${first.slice(1)}, really! ${second}.`;
    const speech = timedSpeech(info.outputDir, 'script', 'en', text, 2201);
    await useLocalModels(page, baseURL!, false);
    const app = new AppPage(page);
    await app.goto();
    await app.chooseFile(speech.path);
    await app.toggle('align_script');
    const section = page.locator('fieldset', { has: app.byId('options.align_script') });
    await expect(section).toContainText(
      'Time a text I already haveYour words are kept exactly as written and timed to the media, instead of what Murmur hears.',
    );
    await expect(section).toContainText(
      'Text that was said' +
        'Open a text or subtitle file (TXT, SRT or VTT)' +
        'A script, notes typed during the talk, or subtitles with wrong times. One segment per sentence or line (per cue for subtitles).',
    );
    await app.submit();
    await expect(app.fieldError('script')).toHaveText(
      'The script has no words to time: give the text that was said.',
    );

    await app.fill('script', text);
    await app.submit();
    await app.expectResult(150_000);
    const segments = (await app.byId('result.segment-text').allInnerTexts()).map((t) => t.trim());
    expect(segments).toEqual([`${text.split('! ')[0]}!`, second + '.']);
    const words = await app.byId('result.word').allInnerTexts();
    expect(words.map((w) => w.trim())).toEqual(text.split(' '));
    const begins = await app
      .byId('result.word')
      .evaluateAll((nodes) => nodes.map((n) => Number(n.getAttribute('data-begin'))));
    const errors = begins.map((t, i) => Math.abs(t - speech.words[i]!.start)).sort((a, b) => a - b);
    expect(errors[errors.length >> 1]).toBeLessThanOrEqual(0.1);
    await page.screenshot({ path: join(info.outputDir, 'aligned.png'), fullPage: true });
  });

  test('marks a line nobody said in the editor, the VTT and the web page document, and leaves it out of the SRT', async ({
    page,
    baseURL,
  }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const said = [sentence('en', 2211, 6), sentence('en', 2212, 7)];
    const media = spokenFile(
      info.outputDir,
      'unsaid',
      said.map((text) => ({ language: 'en' as const, text })),
      1,
    );
    const never = 'Nobody ever read this line of the script aloud to anyone.';
    await useLocalModels(page, baseURL!, false);
    const app = new AppPage(page);
    await app.goto();
    await app.chooseFile(media.path);
    await app.toggle('align_script');
    await app.fill('script', `${said[0]}.\n${never}\n${said[1]}.`);
    await app.submit();
    await app.expectResult(150_000);

    const segments = app.byId('result.segment');
    await expect(segments).toHaveCount(3);
    await expect(segments.nth(1)).toHaveAttribute('data-not-said', 'true');
    await expect(segments.nth(1).getByTestId('result.segment-not-said')).toHaveText('Not said');
    await expect(segments.nth(1).getByTestId('result.segment-not-said')).toBeVisible();
    await expect(app.byId('result.segment-not-said')).toHaveCount(1);
    // Nothing to play from: the line's time is not a button, and its words say they were not said.
    await expect(segments.nth(1).getByTestId('result.segment-time')).toHaveCount(0);
    await expect(segments.nth(1).getByRole('button', { name: 'Nobody, not said' })).toBeVisible();
    await expect(segments.nth(0).getByTestId('result.segment-time')).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    const read = async (format: 'readable-vtt' | 'srt' | 'json') =>
      readFileSync((await (await app.download(format)).path())!, 'utf8');
    expect(await read('readable-vtt')).toContain(`\n\nNOTE Not said: ${never}\n\n`);
    const srt = await read('srt');
    expect(srt).not.toContain('Nobody');
    expect(srt.match(/ --> /g)).toHaveLength(2);
    const json = JSON.parse(await read('json')) as TranscriptionResponse;
    expect(json.prediction_raw.transcription.map((s) => s.not_said ?? false)).toEqual([
      false,
      true,
      false,
    ]);

    // The web page document: the line labelled in words, with no time, and the page axe-clean.
    await app.byId('documents').locator('summary').click();
    await app.byId('documents.times').selectOption('segment');
    const html = readFileSync((await (await app.download('html')).path())!, 'utf8');
    const reader = await page.context().newPage();
    await reader.setContent(html);
    const turns = reader.locator('p.turn');
    await expect(turns).toHaveCount(3);
    await expect(reader.locator('.not-said')).toHaveCount(1);
    await expect(turns.nth(1).locator('.not-said')).toHaveText(`(Not said: ${never})`);
    await expect(turns.nth(1).locator('time')).toHaveCount(0);
    await expect(turns.nth(0).locator('time')).toHaveCount(1);
    await expect(turns.nth(2).locator('time')).toHaveCount(1);
    expect(await seriousViolations(reader), 'the exported page').toEqual([]);
    await reader.close();
    await page.screenshot({ path: join(info.outputDir, 'not-said.png'), fullPage: true });
  });

  test('reads a subtitle file into the text box', async ({ page, baseURL }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const srt =
      '1\n00:00:01,000 --> 00:00:02,000\nHello there\n\n2\n00:00:03,000 --> 00:00:04,000\nGood bye\n';
    const path = join(info.outputDir, 'wrong-times.srt');
    writeFileSync(path, srt);
    await useLocalModels(page, baseURL!, false);
    const app = new AppPage(page);
    await app.goto();
    await app.toggle('align_script');
    await app.byId('options.script-file').setInputFiles(path);
    await expect(app.byId('options.script')).toHaveValue(srt);

    // A file that is not text is not put in the box: the page says why, naming the line.
    await app.byId('options.script-file').setInputFiles({
      name: 'photo.srt',
      mimeType: 'application/x-subrip',
      buffer: Buffer.from([0x31, 0x0a, 0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46]),
    });
    await expect(app.fieldError('script')).toHaveText(
      'The script is not text: line 2 holds bytes that are not UTF-8. Give the text that was said as plain text, SRT or VTT, in UTF-8.',
    );
    await expect(app.byId('options.script')).toHaveValue(srt);
  });
});
