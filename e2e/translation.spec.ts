import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { parseSync } from 'subtitle';
import { parallelRows, rowSequence, rowsText, rowsTranslation } from '../tools/testing/parallel';
import { spokenFile } from '../tools/testing/speech';
import { wordErrorRate } from '../tools/testing/wer';
import { useLocalModels } from './fixtures/test-models';
import { AppPage } from './pages/app-page';

test.describe('translation in the browser', () => {
  test.setTimeout(180_000);

  test('translate spoken English into French, see both, download either', async ({
    page,
    baseURL,
  }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const rows = parallelRows();
    const first = rowSequence(7101, 6, rows.length);
    const second = rowSequence(7102, 5, rows.length);
    const speech = spokenFile(info.outputDir, 'to-french', [
      { language: 'en', text: rowsText(rows, first, 'en') },
      { language: 'en', text: rowsText(rows, second, 'en') },
    ]);
    const french = `${rowsText(rows, first, 'fr')} ${rowsText(rows, second, 'fr')}`;

    await useLocalModels(page, baseURL!);
    const app = new AppPage(page);
    await app.goto();
    await app.chooseFile(speech.path);
    await app.toggle('toggle_direct_translate');
    await app.fill('target_translation_language', 'french');
    await app.submit();

    await app.expectResult(150_000);
    const languages = await app.byId('result.segment-language').allInnerTexts();
    expect(languages.length).toBeGreaterThan(0);
    expect(languages.every((l) => l.trim().toLowerCase() === 'fr')).toBe(true);
    const originals = await app.byId('result.segment-original').allInnerTexts();
    expect(originals).toHaveLength(languages.length);
    expect(originals.every((o) => /^Original \(English\):/i.test(o.trim()))).toBe(true);
    await page.screenshot({ path: 'test-results/screens/translated.png', fullPage: true });

    // The SRT in the translation: French words, close to the same rows in French.
    const srt = readFileSync(await (await app.download('srt')).path(), 'utf8');
    const cues = parseSync(srt).flatMap((n) => (n.type === 'cue' ? [n.data.text] : []));
    expect(cues).toHaveLength(languages.length);
    // Held to the word-for-word translation of what was recognised (shown as the original), and
    // more loosely to what was said: the test recogniser may miss a word no translation restores.
    const recognised = originals.map((o) => o.replace(/^\s*Original \([^)]*\):\s*/i, '')).join(' ');
    const error = wordErrorRate(rowsTranslation(rows, recognised, 'en', 'fr'), cues.join(' '));
    console.log(
      `translated SRT: word error ${(error * 100).toFixed(1)}% against the recognised rows`,
    );
    expect(error).toBeLessThanOrEqual(0.15);
    expect(wordErrorRate(french, cues.join(' '))).toBeLessThanOrEqual(0.4);

    // The same download in the spoken language.
    await app.byId('download.language').selectOption('original');
    const original = readFileSync(await (await app.download('srt')).path(), 'utf8');
    const spoken = parseSync(original).flatMap((n) => (n.type === 'cue' ? [n.data.text] : []));
    expect(wordErrorRate(speech.text, spoken.join(' '))).toBeLessThanOrEqual(0.25);
  });
});
