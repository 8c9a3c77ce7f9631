import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { sentence } from '../tools/testing/speech';
import { seriousViolations } from './fixtures/axe';
import { conversationFile, type Conversation, type Turn } from './fixtures/speech-files';
import { TEST_WHISPER } from './fixtures/test-models';
import { AppPage } from './pages/app-page';

const TEST_SEGMENTATION = 'murmur-test/segmentation-synth';
const TEST_EMBEDDING = 'murmur-test/embedding-synth';

/** Two clearly different voices taking turns, in the order given, on sentences of `seed`. */
function talk(dir: string, name: string, voices: [string, string], seed: number): Conversation {
  const turns: Turn[] = [0, 1, 2, 3].map((i) => ({
    variant: voices[i % 2]!,
    text: sentence('en', seed + i, 9),
  }));
  return conversationFile(dir, name, turns);
}

/** The page with the test models, speaker models too, on every load (reloads included). */
async function openApp(page: Page, baseURL: string): Promise<AppPage> {
  const settings = {
    modelHost: `${baseURL}/hub/`,
    whisperModel: TEST_WHISPER,
    segmentationModel: TEST_SEGMENTATION,
    embeddingModel: TEST_EMBEDDING,
    useGpu: false,
  };
  await page.addInitScript((value) => {
    localStorage.setItem('murmur.settings', value);
  }, JSON.stringify(settings));
  const app = new AppPage(page);
  await app.goto();
  return app;
}

/** Transcribes a conversation with speakers told apart (the toggle is kept between files). */
async function transcribe(app: AppPage, conversation: Conversation): Promise<void> {
  await app.chooseFile(conversation.path);
  if (!(await app.byId('options.toggle_diarization').isChecked())) {
    await app.toggle('toggle_diarization');
  }
  await app.fill('diarization_num_speakers', '2');
  await app.submit();
  await app.expectResult(200_000);
}

/**
 * The same conversation in another file (FLAC, named otherwise): the same two people in a
 * recording the page has not seen, heard exactly alike, so that what is tested is the page's
 * part (which stored voice names whom), not how well a test model tells voices apart.
 */
function flacCopy(conversation: Conversation, path: string): Conversation {
  execFileSync('sox', ['-V1', '-D', conversation.path, path]);
  return { ...conversation, path };
}

const nameOf = (page: Page, label: string) =>
  page.locator(`[data-testid="speaker.name"][data-speaker="${label}"]`);
const inSpeaker = (page: Page, testId: string, label: string) =>
  page.locator(`[data-testid="${testId}"][data-speaker="${label}"]`);

test.describe('voices', () => {
  test('a voice remembered in one file names that person in the next, offers a near one, and moves between browsers', async ({
    page,
    baseURL,
    browser,
  }, info) => {
    test.setTimeout(600_000);
    mkdirSync(info.outputDir, { recursive: true });
    mkdirSync('test-results/screens', { recursive: true });
    const first = talk(info.outputDir, 'first', ['m3', 'f5'], 5101);
    const second = flacCopy(first, info.outputPath('second.flac'));
    const app = await openApp(page, baseURL!);
    await expect(app.byId('voices.empty')).toHaveText(
      'No voices stored. Choose “Remember this voice” under a result’s speakers, and later recordings with “Tell speakers apart” on are named for you.',
    );
    await expect(app.byId('voices.warning')).toHaveText(
      'A voice is personal data: it tells who a person is by how they sound (biometric data). Voices stay in this browser and are sent nowhere, unless you export them. Remember a person’s voice only with their consent.',
    );

    await transcribe(app, first);
    // No voice stored yet: nothing named, nothing offered.
    await expect(nameOf(page, 'speaker_0')).toHaveValue('speaker_0');
    await expect(app.byId('voice.offer')).toHaveCount(0);

    // Keyboard only: the speaker has no name, so one is asked for, and the speaker takes it.
    await inSpeaker(page, 'voice.remember', 'speaker_0').focus();
    await page.keyboard.press('Enter');
    await expect(app.byId('voice.name')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(app.byId('voice.problem')).toHaveText('Give the voice a name first.');
    await app.byId('timeline').screenshot({ path: 'test-results/screens/voices-remember.png' });
    await page.keyboard.type('Anna');
    await page.keyboard.press('Enter');
    await expect(inSpeaker(page, 'voice.remembered', 'speaker_0')).toHaveText(
      /^Remembered “Anna” in this browser: the voice now rests on 0:\d\d of speech from 1 recording\.$/,
    );
    await expect(inSpeaker(page, 'voice.remember', 'speaker_0')).toBeFocused();
    await expect(nameOf(page, 'speaker_0')).toHaveValue('Anna');
    // What the speaker said here, told apart from what the voice rests on.
    await expect(app.byId('speaker.spoken').first()).toHaveText(/^0:\d\d in this recording$/);

    // A speaker with a name is remembered under it, without a question.
    await nameOf(page, 'speaker_1').fill('Tom');
    await nameOf(page, 'speaker_1').press('Enter');
    await inSpeaker(page, 'voice.remember', 'speaker_1').click();
    await expect(inSpeaker(page, 'voice.remembered', 'speaker_1')).toHaveText(
      /^Remembered “Tom” in this browser: the voice now rests on 0:\d\d of speech from 1 recording\.$/,
    );
    await expect(app.byId('voices.count')).toHaveText('2 stored');
    await expect(app.byId('voices.voice')).toHaveText(['Anna', 'Tom']);
    await expect(app.byId('voices.rests').first()).toHaveText(
      new RegExp(`^0:\\d\\d of speech from 1 recording · ${TEST_EMBEDDING}$`),
    );
    // The result's downloads carry no embedding.
    const json = readFileSync(await (await app.download('json')).path(), 'utf8');
    expect(json).not.toContain('embedding');

    // The second file: both people named at once, each name a step of its own.
    await transcribe(app, second);
    await expect(nameOf(page, 'speaker_0')).toHaveValue('Anna');
    await expect(nameOf(page, 'speaker_1')).toHaveValue('Tom');
    await expect(inSpeaker(page, 'voice.recognised', 'speaker_0')).toHaveText(
      'Named from a stored voice (see Voices).',
    );
    await expect(app.byId('voice.offer')).toHaveCount(0);
    const txt = readFileSync(await (await app.download('txt')).path(), 'utf8');
    expect(txt.split('\n')[0]).toMatch(/^Anna: /);
    expect(txt).not.toContain('speaker_');
    expect(await seriousViolations(page)).toEqual([]);
    await app.byId('timeline').screenshot({ path: 'test-results/screens/voices-named.png' });

    // Undo takes the names back one at a time; redo gives them again.
    await app.byId('editor.undo').click();
    const oneBack = [
      await nameOf(page, 'speaker_0').inputValue(),
      await nameOf(page, 'speaker_1').inputValue(),
    ];
    expect(oneBack.filter((n) => n.startsWith('speaker_'))).toHaveLength(1);
    await app.byId('editor.undo').click();
    await expect(nameOf(page, 'speaker_0')).toHaveValue('speaker_0');
    await expect(nameOf(page, 'speaker_1')).toHaveValue('speaker_1');
    await expect(app.byId('voice.recognised')).toHaveCount(0);
    await app.byId('editor.redo').click();
    await app.byId('editor.redo').click();
    await expect(nameOf(page, 'speaker_0')).toHaveValue('Anna');
    // A speaker named by a voice can be renamed like any other.
    await nameOf(page, 'speaker_0').fill('Annie');
    await nameOf(page, 'speaker_0').press('Enter');
    await expect(inSpeaker(page, 'voice.recognised', 'speaker_0')).toHaveCount(0);
    await app.byId('editor.undo').click();
    await expect(nameOf(page, 'speaker_0')).toHaveValue('Anna');

    // A reload keeps the names, where they came from, and the voices.
    await page.reload();
    await expect(nameOf(page, 'speaker_0')).toHaveValue('Anna');
    await expect(inSpeaker(page, 'voice.recognised', 'speaker_1')).toBeVisible();
    await expect(app.byId('voices.voice')).toHaveText(['Anna', 'Tom']);

    // The first file, reopened from the history, still remembers: Anna is strengthened.
    const entry = app.byId('history.item').filter({ hasText: 'first' });
    await entry.getByTestId('history.open').click();
    await expect(nameOf(page, 'speaker_0')).toHaveValue('Anna');
    await inSpeaker(page, 'voice.remember', 'speaker_0').click();
    await expect(inSpeaker(page, 'voice.remembered', 'speaker_0')).toHaveText(
      /^Remembered “Anna” in this browser: the voice now rests on \d:\d\d of speech from 2 recordings\.$/,
    );

    // Voices too far to be sure of are offered, not given (the test build sets the distances).
    await page.evaluate(() => window.murmurTestHooks!.setVoiceThresholds({ match: -1, near: 2 }));
    await transcribe(app, second);
    await expect(nameOf(page, 'speaker_0')).toHaveValue('speaker_0');
    await expect(inSpeaker(page, 'voice.offer', 'speaker_0')).toHaveText('Anna?');
    await expect(inSpeaker(page, 'voice.offer', 'speaker_1')).toHaveText('Tom?');
    expect(await seriousViolations(page)).toEqual([]);
    await app.byId('timeline').screenshot({ path: 'test-results/screens/voices-offered.png' });
    // Accepted by keyboard: a rename, and the focus on the name it gave.
    const accept = inSpeaker(page, 'voice.accept', 'speaker_0');
    await expect(accept).toHaveAccessibleName('Accept the name Anna for speaker_0');
    await accept.focus();
    await page.keyboard.press('Enter');
    await expect(nameOf(page, 'speaker_0')).toHaveValue('Anna');
    await expect(nameOf(page, 'speaker_0')).toBeFocused();
    await expect(inSpeaker(page, 'voice.offer', 'speaker_0')).toHaveCount(0);
    await expect(inSpeaker(page, 'voice.recognised', 'speaker_0')).toBeVisible();
    await app.byId('editor.undo').click();
    await expect(inSpeaker(page, 'voice.offer', 'speaker_0')).toHaveText('Anna?');
    await page.evaluate(() => window.murmurTestHooks!.setVoiceThresholds(null));

    // Files of a batch are kept named too, one undo step a name, ready when opened.
    const meetings = [
      flacCopy(first, info.outputPath('meeting-a.flac')),
      flacCopy(first, info.outputPath('meeting-b.flac')),
    ];
    await app.byId('media.file').setInputFiles(meetings.map((m) => m.path));
    await app.submit();
    await expect(app.byId('batch.item').nth(1)).toHaveAttribute('data-status', 'done', {
      timeout: 200_000,
    });
    await app
      .byId('history.item')
      .filter({ hasText: 'meeting-b' })
      .getByTestId('history.open')
      .click();
    await expect(app.byId('result.title')).toHaveText('meeting-b');
    await expect(nameOf(page, 'speaker_0')).toHaveValue('Anna');
    await expect(nameOf(page, 'speaker_1')).toHaveValue('Tom');
    await expect(inSpeaker(page, 'voice.recognised', 'speaker_1')).toBeVisible();
    await app.byId('editor.undo').click();
    await app.byId('editor.undo').click();
    await expect(nameOf(page, 'speaker_0')).toHaveValue('speaker_0');
    await expect(nameOf(page, 'speaker_1')).toHaveValue('speaker_1');

    // Renamed in the list; a name another voice has is refused.
    const tom = app.byId('voices.item').filter({ hasText: 'Tom' });
    await tom.getByTestId('voices.rename').click();
    await app.byId('voices.name').fill('anna');
    await app.byId('voices.name').press('Enter');
    await expect(app.byId('voices.problem')).toHaveText(
      'Another voice is already called “anna”. Choose a different name.',
    );
    await app.byId('voices.name').fill('Thomas');
    await app.byId('voices.name').press('Enter');
    await expect(app.byId('voices.voice')).toHaveText(['Anna', 'Thomas']);
    expect(await seriousViolations(page)).toEqual([]);
    await app.byId('voices').screenshot({ path: 'test-results/screens/voices-list.png' });
    await page.setViewportSize({ width: 390, height: 844 });
    await app.byId('timeline').scrollIntoViewIfNeeded();
    expect(await seriousViolations(page)).toEqual([]);
    await app.byId('timeline').screenshot({ path: 'test-results/screens/voices-phone.png' });
    await app.byId('voices').screenshot({ path: 'test-results/screens/voices-list-phone.png' });
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await seriousViolations(page)).toEqual([]);
    await app.byId('voices').screenshot({ path: 'test-results/screens/voices-list-dark.png' });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1366, height: 900 });

    // Exported: the voices file, read into a browser that never had them.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      app.byId('voices.export').click(),
    ]);
    expect(download.suggestedFilename()).toBe('voices.json');
    const exported = info.outputPath('voices.json');
    await download.saveAs(exported);
    const file = JSON.parse(readFileSync(exported, 'utf8')) as {
      format: string;
      version: number;
      voices: { name: string; model: string; recordings: number }[];
    };
    expect(file.format).toBe('murmur-voices');
    expect(file.version).toBe(1);
    expect(file.voices.map((v) => [v.name, v.model, v.recordings])).toEqual([
      ['Anna', TEST_EMBEDDING, 2],
      ['Thomas', TEST_EMBEDDING, 1],
    ]);

    const fresh = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const other = await fresh.newPage();
    const otherApp = await openApp(other, baseURL!);
    await expect(otherApp.byId('voices.count')).toHaveText('0 stored');
    const bad = info.outputPath('notes.json');
    writeFileSync(bad, '{"format":"something-else"}');
    await otherApp.byId('voices.import').setInputFiles(bad);
    await expect(otherApp.byId('voices.import-said')).toHaveText(
      'notes.json is not a voices file: it does not say "format": "murmur-voices".',
    );
    await otherApp.byId('voices.import').setInputFiles(exported);
    await expect(otherApp.byId('voices.import-said')).toHaveText(
      'Imported 2 voices from voices.json.',
    );
    await expect(otherApp.byId('voices.voice')).toHaveText(['Anna', 'Thomas']);
    // A bad file afterwards loses nothing.
    await otherApp.byId('voices.import').setInputFiles(bad);
    await expect(otherApp.byId('voices.voice')).toHaveText(['Anna', 'Thomas']);
    // One deleted (by keyboard), and gone after a reload too.
    const thomas = otherApp.byId('voices.item').filter({ hasText: 'Thomas' });
    await expect(thomas.getByTestId('voices.delete')).toHaveAccessibleName('Delete Thomas');
    await thomas.getByTestId('voices.delete').focus();
    await other.keyboard.press('Enter');
    await expect(otherApp.byId('voices.voice')).toHaveText(['Anna']);
    // Undone, it is back where it stood; deleted again, it stays gone.
    await expect(otherApp.byId('voices.deleted')).toHaveText('Deleted “Thomas” from this browser.');
    await otherApp.byId('voices.undo').click();
    await expect(otherApp.byId('voices.voice')).toHaveText(['Anna', 'Thomas']);
    await expect(otherApp.byId('voices.undo')).toHaveCount(0);
    await thomas.getByTestId('voices.delete').click();
    await expect(otherApp.byId('voices.voice')).toHaveText(['Anna']);
    await other.reload();
    await expect(otherApp.byId('voices.voice')).toHaveText(['Anna']);
    await expect(otherApp.byId('voices.count')).toHaveText('1 stored');
    await fresh.close();

    // Delete all asks first; a reload finds none.
    page.once('dialog', (dialog) => {
      expect(dialog.message()).toBe('Delete every stored voice?');
      void dialog.accept();
    });
    await app.byId('voices.clear').click();
    await expect(app.byId('voices.count')).toHaveText('0 stored');
    await page.reload();
    await expect(app.byId('voices.empty')).toBeVisible();
  });
});
