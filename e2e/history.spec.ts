import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { sentence } from '../tools/testing/speech';
import { savedSession } from './fixtures/saved-session';
import { conversationFile, spokenFile } from './fixtures/speech-files';
import { TEST_WHISPER, useLocalModels } from './fixtures/test-models';
import { AppPage } from './pages/app-page';

/** What this site keeps in IndexedDB: the session's keys and the history's media, by name. */
function storedKeys(page: Page): Promise<{ session: string[]; media: string[] }> {
  return page.evaluate(async () => {
    const keys = (db: string, store: string) =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open(db);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction(store).objectStore(store).getAllKeys();
          request.onsuccess = () => {
            resolve(request.result.map(String));
            open.result.close();
          };
        };
      });
    return {
      session: await keys('keyval-store', 'keyval'),
      media: await keys('murmur-history-media', 'media'),
    };
  });
}

test.describe('the history of transcriptions', () => {
  test.setTimeout(180_000);

  test('finished transcriptions survive a reload, are found by a word, reopen and delete', async ({
    page,
    baseURL,
  }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const files = [
      spokenFile(info.outputDir, 'harbour', [{ language: 'en', seed: 401, words: 6 }]),
      spokenFile(info.outputDir, 'market', [{ language: 'en', seed: 402, words: 6 }]),
    ];
    await useLocalModels(page, baseURL!, false);
    const app = new AppPage(page);
    await app.goto();
    await expect(app.byId('history.empty')).toBeVisible();
    const texts: string[] = [];
    for (const file of files) {
      await app.chooseFile(file.path);
      await app.submit();
      await app.expectResult(120_000);
      texts.push((await app.byId('result.segment-text').allInnerTexts()).join(' '));
    }
    await expect(app.byId('history.item')).toHaveCount(2);
    const note = await app.byId('result.network-note').innerText();
    await expect(app.byId('result.summary')).toContainText('Ran on');
    await expect(app.byId('history.item-findings')).toHaveText([
      'English · 1 segment',
      'English · 1 segment',
    ]);

    await page.reload();
    await app.byId('form.submit').waitFor();
    // The result restored by the reload says what it fetched and where it ran, as before.
    await expect(app.byId('result.network-note')).toHaveText(note);
    await expect(app.byId('result.summary')).toContainText('Ran onCPU (WASM)');
    // Newest first.
    await expect(app.byId('history.item-title')).toHaveText(['market', 'harbour']);
    await expect(app.byId('history.storage')).toContainText('2 kept');

    // A word said only in the first file finds it alone.
    const words = (t: string): string[] => t.toLowerCase().match(/[\p{L}']+/gu) ?? [];
    const only = words(texts[0]!).find((w) => w.length > 2 && !words(texts[1]!).includes(w));
    expect(only, `a word of "${texts[0]}" not in "${texts[1]}"`).toBeDefined();
    await app.byId('history.search').fill(only!.toUpperCase());
    await expect(app.byId('history.item-title')).toHaveText(['harbour']);
    await app.byId('history.search').fill('');

    // Reopened with its player and its text.
    await app
      .byId('history.item')
      .filter({ hasText: 'harbour' })
      .getByTestId('history.open')
      .click();
    await expect(app.byId('result.title')).toHaveText('harbour');
    await expect(app.byId('result.player')).toBeVisible();
    expect((await app.byId('result.segment-text').allInnerTexts()).join(' ')).toBe(texts[0]);

    await app
      .byId('history.item')
      .filter({ hasText: 'market' })
      .getByTestId('history.delete')
      .click();
    await expect(app.byId('history.item-title')).toHaveText(['harbour']);
    await page.reload();
    await app.byId('form.submit').waitFor();
    await expect(app.byId('history.item-title')).toHaveText(['harbour']);
    await page.screenshot({ path: 'test-results/screens/history.png', fullPage: true });

    page.once('dialog', (dialog) => void dialog.accept());
    await app.byId('history.clear').click();
    await expect(app.byId('history.empty')).toBeVisible();
    await page.reload();
    await expect(app.byId('history.empty')).toBeVisible();
  });

  test('the media is not kept when the storage has no room for it, and the entry says so', async ({
    page,
    baseURL,
  }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const speech = spokenFile(info.outputDir, 'crowded', [{ language: 'en', seed: 403, words: 5 }]);
    await useLocalModels(page, baseURL!, false);
    // A browser that allows this site 100 MB, of which 99.9 MB are used.
    await page.addInitScript(() => {
      navigator.storage.estimate = () => Promise.resolve({ usage: 99_900_000, quota: 100_000_000 });
    });
    const app = new AppPage(page);
    await app.goto();
    await app.chooseFile(speech.path);
    await app.submit();
    await expect(app.byId('history.item')).toHaveCount(1, { timeout: 120_000 });
    await expect(app.byId('history.item')).toContainText('media not kept: storage is nearly full');
    await page.reload();
    await app.byId('history.open').click();
    await expect(app.byId('result.title')).toHaveText('crowded');
    await expect(app.byId('result.player')).toHaveCount(0);
  });

  test('deleting the shown entry, or all, closes it with its media, also after a reload', async ({
    page,
    baseURL,
  }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const files = [
      spokenFile(info.outputDir, 'private', [{ language: 'en', seed: 404, words: 5 }]),
      spokenFile(info.outputDir, 'secret', [{ language: 'en', seed: 405, words: 5 }]),
      spokenFile(info.outputDir, 'draft', [{ language: 'en', seed: 406, words: 5 }]),
    ];
    await useLocalModels(page, baseURL!, false);
    const app = new AppPage(page);
    await app.goto();
    for (const file of files) {
      await app.chooseFile(file.path);
      await app.submit();
      await expect(app.byId('result.title')).toHaveText(file.path.match(/(\w+)\.wav$/)![1]!, {
        timeout: 120_000,
      });
      await expect(app.byId('history.item')).toHaveCount(files.indexOf(file) + 1);
    }

    // Deleting the entry on screen closes it; it stays closed after a reload.
    await app
      .byId('history.item')
      .filter({ hasText: 'draft' })
      .getByTestId('history.delete')
      .click();
    await expect(app.byId('result')).toHaveCount(0);
    await expect(app.byId('result.player')).toHaveCount(0);
    await expect(page.getByText('Your transcript will appear here')).toBeVisible();
    await page.reload();
    await app.byId('form.submit').waitFor();
    await expect(app.byId('history.item-title')).toHaveText(['secret', 'private']);
    await expect(app.byId('result')).toHaveCount(0);
    expect((await storedKeys(page)).media).toHaveLength(2);

    // Deleting another entry leaves the one on screen.
    await app
      .byId('history.item')
      .filter({ hasText: 'private' })
      .getByTestId('history.open')
      .click();
    await expect(app.byId('result.title')).toHaveText('private');
    await app
      .byId('history.item')
      .filter({ hasText: 'secret' })
      .getByTestId('history.delete')
      .click();
    await expect(app.byId('history.item-title')).toHaveText(['private']);
    await expect(app.byId('result.title')).toHaveText('private');
    await expect.poll(async () => (await savedSession(page))?.name).toBe('private');
    await page.reload();
    await expect(app.byId('result.title')).toHaveText('private');

    // "Delete all" closes it too, and nothing of the media stays in the browser.
    page.once('dialog', (dialog) => void dialog.accept());
    await app.byId('history.clear').click();
    await expect(app.byId('history.empty')).toBeVisible();
    await expect(app.byId('result')).toHaveCount(0);
    await page.reload();
    await app.byId('form.submit').waitFor();
    await expect(app.byId('result')).toHaveCount(0);
    expect(await storedKeys(page)).toEqual({ session: [], media: [] });
  });

  test('Close takes the result off the page, and it does not come back after a reload', async ({
    page,
    baseURL,
  }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const speech = spokenFile(info.outputDir, 'closed', [{ language: 'en', seed: 407, words: 5 }]);
    await useLocalModels(page, baseURL!, false);
    const app = new AppPage(page);
    await app.goto();
    await app.chooseFile(speech.path);
    await app.submit();
    await expect(app.byId('result.player')).toBeVisible({ timeout: 120_000 });
    await app.byId('result.close').click();
    await expect(app.byId('result')).toHaveCount(0);
    await expect(page.getByText('Your transcript will appear here')).toBeVisible();
    await page.reload();
    await app.byId('form.submit').waitFor();
    await expect(app.byId('result')).toHaveCount(0);
    expect((await storedKeys(page)).session).toEqual([]);
    // The history keeps it until it is deleted there.
    await expect(app.byId('history.item-title')).toHaveText(['closed']);
  });

  test("a reopened entry keeps its corrections, its speakers' names and their undo steps", async ({
    page,
    baseURL,
  }, info) => {
    test.setTimeout(360_000);
    mkdirSync(info.outputDir, { recursive: true });
    const talk = conversationFile(info.outputDir, 'interview', [
      { variant: 'm3', text: sentence('en', 3201, 9) },
      { variant: 'f5', text: sentence('en', 3202, 9) },
      { variant: 'm3', text: sentence('en', 3203, 9) },
    ]);
    const other = spokenFile(info.outputDir, 'memo', [{ language: 'en', seed: 408, words: 6 }]);
    await useLocalModels(page, baseURL!, false);
    const link = new URLSearchParams({
      models: `${baseURL}/hub/`,
      model: TEST_WHISPER,
      segmentation: 'murmur-test/segmentation-synth',
      embedding: 'murmur-test/embedding-synth',
    });
    await page.goto(`/?${link}`);
    const app = new AppPage(page);
    await app.byId('form.submit').waitFor();
    await app.chooseFile(talk.path);
    await app.toggle('toggle_diarization');
    await app.fill('diarization_num_speakers', '2');
    await app.submit();
    await app.expectResult(200_000);
    await expect(app.byId('history.item')).toHaveCount(1);

    // A word corrected, and the first speaker named.
    const firstText = app.byId('result.segment').first().getByTestId('result.segment-text');
    await app.byId('result.segment').first().getByTestId('result.word').nth(1).click();
    await app.byId('result.player').evaluate((m) => (m as HTMLMediaElement).pause());
    await page.keyboard.press('F2');
    await app.byId('editor.word-input').fill('Zebra');
    await page.keyboard.press('Enter');
    await expect(firstText).toContainText('Zebra');
    const corrected = await firstText.innerText();
    const anna = page.locator('[data-testid="speaker.name"][data-speaker="speaker_0"]');
    await anna.fill('Anna');
    await anna.press('Enter');
    await expect(app.byId('editor.speaker').first()).toHaveValue('Anna');

    // Another file, transcribed and shown in its place.
    await app.toggle('toggle_diarization');
    await app.chooseFile(other.path);
    await app.submit();
    await expect(app.byId('result.title')).toHaveText('memo', { timeout: 200_000 });
    await expect(app.byId('history.item')).toHaveCount(2);

    const entry = app.byId('history.item').filter({ hasText: 'interview' });
    /** What the page shows of the reopened entry: the editor, the preview, the downloads. */
    const expectCorrected = async () => {
      await expect(app.byId('result.title')).toHaveText('interview');
      await expect(firstText).toHaveText(corrected);
      await expect(anna).toHaveValue('Anna');
      await expect(app.byId('editor.speaker').first()).toHaveValue('Anna');
      await expect(app.byId('editor.undo')).toBeEnabled();
      await expect(entry).toContainText('Zebra');
      const txt = readFileSync(await (await app.download('txt')).path(), 'utf8');
      expect(txt).toMatch(/^Anna: .*Zebra/);
      expect(txt).not.toContain('speaker_0');
      const documents = app.byId('documents');
      if ((await documents.getAttribute('open')) === null) {
        await documents.locator('summary').click();
      }
      const markdown = readFileSync(await (await app.download('markdown')).path(), 'utf8');
      expect(markdown).toContain('Anna');
      expect(markdown).not.toContain('speaker_0');
    };
    await entry.getByTestId('history.open').click();
    await expectCorrected();
    await page.screenshot({ path: '/tmp/app-history-reopened.png', fullPage: true });

    // The same after a reload, and after opening the other entry and this one again.
    await page.reload();
    await expectCorrected();
    await app.byId('history.item').filter({ hasText: 'memo' }).getByTestId('history.open').click();
    await expect(app.byId('result.title')).toHaveText('memo');
    await expect(app.byId('editor.undo')).toBeDisabled();
    await entry.getByTestId('history.open').click();
    await expectCorrected();

    // Its undo steps came back with it: the name goes first, then the word.
    await app.byId('editor.undo').click();
    await expect(anna).toHaveValue('speaker_0');
    await app.byId('editor.undo').click();
    await expect(firstText).not.toContainText('Zebra');
    // An undone correction is what the entry shows from then on.
    await expect(entry).not.toContainText('Zebra');
  });
});
