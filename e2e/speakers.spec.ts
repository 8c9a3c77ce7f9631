import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { assembleResponse, type RecognisedSegment } from '../src/core/assemble/response';
import type { TranscriptionResponse } from '../src/core/contract/response';
import { sentence } from '../tools/testing/speech';
import { seriousViolations } from './fixtures/axe';
import { conversationFile, type Conversation } from './fixtures/speech-files';
import { openWithSpeakerModels, TEST_EMBEDDING, TEST_SEGMENTATION } from './fixtures/test-models';
import { AppPage } from './pages/app-page';

/** Four turns, two clearly different voices taking turns. */
function twoVoices(dir: string): Conversation {
  return conversationFile(dir, 'two-voices', [
    { variant: 'm3', text: sentence('en', 3101, 9) },
    { variant: 'f5', text: sentence('en', 3102, 9) },
    { variant: 'm3', text: sentence('en', 3103, 9) },
    { variant: 'f5', text: sentence('en', 3104, 9) },
  ]);
}

/** A file's lines that start with a name and a colon, by name. */
function speakersOf(lines: string[]): Set<string> {
  return new Set(lines.map((l) => /^ ?([^:]+): /.exec(l)?.[1]).filter((n) => n !== undefined));
}

test.describe('speakers', () => {
  test('two voices get two lanes; a name given to one is in every download', async ({
    page,
    baseURL,
  }, info) => {
    test.setTimeout(240_000);
    mkdirSync(info.outputDir, { recursive: true });
    const talk = twoVoices(info.outputDir);
    await openWithSpeakerModels(page, baseURL!);
    const app = new AppPage(page);

    await app.chooseFile(talk.path);
    await app.toggle('toggle_diarization');
    await app.fill('diarization_num_speakers', '2');
    await app.submit();
    await app.expectResult(200_000);

    // One lane a voice, and the segments labelled by the two of them.
    const lanes = app.byId('timeline.lane');
    await expect(lanes).toHaveCount(2);
    await expect(lanes.nth(0)).toHaveAttribute('data-speaker', 'speaker_0');
    await expect(lanes.nth(1)).toHaveAttribute('data-speaker', 'speaker_1');
    const chips = app.byId('editor.speaker');
    const labels = await chips.evaluateAll((inputs) =>
      inputs.map((i) => (i as HTMLInputElement).value),
    );
    expect(new Set(labels)).toEqual(new Set(['speaker_0', 'speaker_1']));
    expect(labels[0]).toBe('speaker_0');
    expect(await app.byId('timeline.block').count()).toBeGreaterThanOrEqual(2);

    // Choosing a turn plays from there: the cursor follows the player.
    await lanes.nth(1).getByTestId('timeline.block').first().click();
    await expect
      .poll(() => app.byId('result.player').evaluate((m) => (m as HTMLMediaElement).currentTime))
      .toBeGreaterThan(0.5);
    await app.byId('result.player').evaluate((m) => (m as HTMLMediaElement).pause());

    // Name the first speaker; a second speaker may not take the same name.
    const first = page.locator('[data-testid="speaker.name"][data-speaker="speaker_0"]');
    const second = page.locator('[data-testid="speaker.name"][data-speaker="speaker_1"]');
    await first.fill('Anna');
    await first.press('Enter');
    await expect(lanes.nth(0)).toContainText('Anna');
    await expect(chips.first()).toHaveValue('Anna');
    await second.fill(' anna ');
    await second.press('Enter');
    await expect(app.byId('speaker.name-problem')).toContainText('already called “Anna”');
    await expect(second).toHaveValue(' anna ');
    await second.press('Escape');
    await expect(app.byId('speaker.name-problem')).toHaveCount(0);
    await expect(second).toHaveValue('speaker_1');

    // Every download carries the name in place of the label.
    const srt = readFileSync(await (await app.download('srt')).path(), 'utf8');
    const srtText = srt.split('\n').filter((l) => l.startsWith(' '));
    expect(speakersOf(srtText)).toEqual(new Set(['Anna', 'speaker_1']));
    expect(srt).not.toContain('speaker_0');
    const vtt = readFileSync(await (await app.download('vtt')).path(), 'utf8');
    expect(vtt).toContain('\n Anna: ');
    const txt = readFileSync(await (await app.download('txt')).path(), 'utf8');
    const txtLines = txt.trimEnd().split('\n');
    expect(txtLines[0]).toMatch(/^Anna: /);
    expect(speakersOf(txtLines)).toEqual(new Set(['Anna', 'speaker_1']));
    const json = JSON.parse(
      readFileSync(await (await app.download('json')).path(), 'utf8'),
    ) as TranscriptionResponse;
    expect(json.prediction_raw.transcription[0]?.speaker).toBe('Anna');
    expect(json.prediction_raw.speaker_mapping.map((s) => s.speaker)).not.toContain('speaker_0');

    // A rename is undone and redone like any correction.
    await app.byId('editor.undo').click();
    await expect(first).toHaveValue('speaker_0');
    await app.byId('editor.redo').click();
    await expect(first).toHaveValue('Anna');

    await app.byId('timeline').scrollIntoViewIfNeeded();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('a link chooses the speaker models; Models lists them with size and licence', async ({
    page,
  }) => {
    const link = new URLSearchParams({
      segmentation: TEST_SEGMENTATION,
      embedding: TEST_EMBEDDING,
    });
    await page.goto(`/?${link}`);
    const app = new AppPage(page);
    await app.byId('form.submit').waitFor();
    await page.getByText('Models', { exact: true }).click();
    await expect(app.byId('settings.segmentation-model')).toHaveValue(TEST_SEGMENTATION);
    await expect(app.byId('settings.embedding-model')).toHaveValue(TEST_EMBEDDING);
    await expect(app.byId('models.segmentation')).toContainText(TEST_SEGMENTATION);
    await expect(app.byId('models.segmentation')).toContainText('about 1.0 MB · MIT');
    await expect(app.byId('models.embedding')).toContainText(TEST_EMBEDDING);
    await expect(app.byId('models.segmentation-status')).toContainText('Not downloaded');

    // Chosen again under Models, and kept for the next visit.
    await app
      .byId('settings.embedding-model')
      .selectOption('onnx-community/wespeaker-voxceleb-resnet34-LM');
    await expect(app.byId('models.embedding')).toContainText('CC-BY-4.0');
    await page.goto('/');
    const saved = JSON.parse(
      (await page.evaluate(() => localStorage.getItem('murmur.settings'))) ?? '{}',
    ) as Record<string, unknown>;
    expect(saved).toMatchObject({
      segmentationModel: TEST_SEGMENTATION,
      embeddingModel: 'onnx-community/wespeaker-voxceleb-resnet34-LM',
    });
    await page.getByText('Models', { exact: true }).click();
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('a kept two-speaker result: lanes, cursor, seeking, names, on a laptop and a phone', async ({
    page,
  }, info) => {
    test.setTimeout(120_000);
    mkdirSync(info.outputDir, { recursive: true });
    const talk = twoVoices(info.outputDir);
    const response = conversationResponse(talk);
    const app = new AppPage(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await app.goto();
    await restoreWith(page, response, readFileSync(talk.path), 'interview');

    const lanes = app.byId('timeline.lane');
    await expect(lanes).toHaveCount(2);
    await expect(lanes.nth(0)).toHaveAttribute('data-speaker', 'speaker_0');
    // Two turns each, far apart: not merged.
    await expect(lanes.nth(0).getByTestId('timeline.block')).toHaveCount(2);
    await expect(lanes.nth(1).getByTestId('timeline.block')).toHaveCount(2);
    const turn = lanes.nth(1).getByTestId('timeline.block').first();
    await expect(turn).toHaveAccessibleName(/^speaker_1, 0:0\d to 0:\d\d, play from here$/);

    // The keyboard reaches a turn and plays from it; the cursor moves there.
    await turn.focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => app.byId('result.player').evaluate((m) => (m as HTMLMediaElement).currentTime))
      .toBeGreaterThanOrEqual(talk.turns[1]!.begin - 0.05);
    await app.byId('result.player').evaluate((m) => (m as HTMLMediaElement).pause());
    const cursor = await app.byId('timeline.cursor').evaluate((e) => parseFloat(e.style.left));
    expect(cursor).toBeGreaterThan(0);

    // A click anywhere on a lane plays from that moment.
    const track = lanes.nth(0).getByTestId('timeline.track');
    const box = (await track.boundingBox())!;
    await track.click({ position: { x: box.width * 0.5, y: 2 } });
    await expect
      .poll(() => app.byId('result.player').evaluate((m) => (m as HTMLMediaElement).currentTime))
      .toBeGreaterThanOrEqual(talk.duration * 0.5 - 0.3);
    await app.byId('result.player').evaluate((m) => (m as HTMLMediaElement).pause());

    const first = page.locator('[data-testid="speaker.name"][data-speaker="speaker_0"]');
    await first.fill('Anna');
    await first.press('Enter');
    await expect(lanes.nth(0)).toContainText('Anna');
    const second = page.locator('[data-testid="speaker.name"][data-speaker="speaker_1"]');
    await second.fill('Tom');
    await second.press('Enter');
    await expect(app.byId('editor.speaker').nth(1)).toHaveValue('Tom');
    const txt = readFileSync(await (await app.download('txt')).path(), 'utf8');
    expect(
      txt
        .split('\n')
        .slice(0, 2)
        .map((l) => l.split(':')[0]),
    ).toEqual(['Anna', 'Tom']);

    // Set the player a little way in, so that the cursor shows.
    await app.byId('result.player').evaluate((m) => ((m as HTMLMediaElement).currentTime = 5.2));
    await expect
      .poll(() => app.byId('timeline.cursor').evaluate((e) => parseFloat(e.style.left)))
      .toBeGreaterThan(20);
    expect(await seriousViolations(page)).toEqual([]);
    mkdirSync('test-results/screens', { recursive: true });
    await app.byId('timeline').screenshot({ path: 'test-results/screens/speakers-timeline.png' });
    await page.screenshot({ path: 'test-results/screens/speakers-result.png', fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await app.byId('timeline').scrollIntoViewIfNeeded();
    expect(await seriousViolations(page)).toEqual([]);
    await app
      .byId('timeline')
      .screenshot({ path: 'test-results/screens/speakers-timeline-phone.png' });
    await page.screenshot({
      path: 'test-results/screens/speakers-result-phone.png',
      fullPage: true,
    });
    // A reload finds the names (kept with the corrections); the dark theme passes too.
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    await expect(lanes.nth(0)).toContainText('Anna');
    await expect(
      page.locator('[data-testid="speaker.name"][data-speaker="speaker_1"]'),
    ).toHaveValue('Tom');
    expect(await seriousViolations(page)).toEqual([]);
    await app
      .byId('timeline')
      .screenshot({ path: 'test-results/screens/speakers-timeline-dark.png' });
  });
});

/** The response a diarized transcription of the conversation gives, by the real assembler. */
function conversationResponse(talk: Conversation): TranscriptionResponse {
  const voices = [...new Set(talk.turns.map((t) => t.variant))];
  const segments: RecognisedSegment[] = talk.turns.map((turn) => {
    const words = turn.text.split(' ');
    const step = (turn.end - turn.begin) / words.length;
    return {
      text: turn.text,
      language: 'en',
      start: turn.begin,
      end: turn.end,
      channel: 0,
      speaker: `speaker_${voices.indexOf(turn.variant)}`,
      words: words.map((text, i) => ({
        text,
        start: turn.begin + i * step,
        end: turn.begin + (i + 1) * step,
        confidence: 0.9,
      })),
    };
  });
  return assembleResponse({
    segments,
    file: {
      nb_channels: 1,
      sample_rate: 16000,
      sample_width: 16,
      duration: talk.duration,
      original_file_type: 'audio',
      number_similar_channels: 0,
    },
    nbSilentChannels: 0,
    totalSpeechDuration: talk.turns.reduce((s, t) => s + t.end - t.begin, 0),
    timings: { total_transcription_time: 1 },
    outputFormat: 'srt',
  });
}

/**
 * Opens a result as a reload finds the last one: the session and its media are written where
 * the app keeps them (IndexedDB, idb-keyval's store), then the page is loaded again.
 */
async function restoreWith(
  page: Page,
  result: TranscriptionResponse,
  media: Buffer,
  name: string,
): Promise<void> {
  await page.evaluate(
    async ({ result, media, name }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('keyval-store');
        open.onupgradeneeded = () => open.result.createObjectStore('keyval');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      const bytes = Uint8Array.from(atob(media), (c) => c.charCodeAt(0));
      const file = new File([bytes], `${name}.wav`, { type: 'audio/wav' });
      const session = {
        result,
        name,
        history: [{ segments: result.prediction_raw.transcription, names: {} }],
        historyIndex: 0,
      };
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction('keyval', 'readwrite');
        tx.objectStore('keyval').put(session, 'murmur.session');
        tx.objectStore('keyval').put(file, 'murmur.session-media');
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    },
    { result, media: media.toString('base64'), name },
  );
  await page.reload();
  await page.getByTestId('timeline').waitFor();
}
