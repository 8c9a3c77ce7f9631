import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import type { TranscriptionResponse } from '../src/core/contract/response';
import { seriousViolations } from './fixtures/axe';
import { mannerRecording, mannerSentences, partAt } from '../tools/testing/manner-speech';
import { conversationFile } from './fixtures/speech-files';
import { openWithSpeakerModels, useLocalModels } from './fixtures/test-models';
import { AppPage } from './pages/app-page';

test.describe('sentiment in the browser', () => {
  test.setTimeout(240_000);

  test('each sentence gets its sentiment in words, by speaker, on the timeline, and negative moments can be shown alone', async ({
    page,
    baseURL,
  }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    // One voice pleased, the other not.
    const talk = conversationFile(info.outputDir, 'moods', [
      { variant: 'm3', text: 'the coffee is very good' },
      { variant: 'f5', text: 'the train was late and the food was bad' },
      { variant: 'm3', text: 'my family is very happy today' },
      { variant: 'f5', text: 'the meeting is on monday' },
    ]);
    await openWithSpeakerModels(page, baseURL!);
    const app = new AppPage(page);
    await app.chooseFile(talk.path);
    await app.toggle('toggle_diarization');
    await app.fill('diarization_num_speakers', '2');
    await app.toggle('toggle_emotion_recognition');
    await app.submit();
    await app.expectResult(200_000);

    const view = app.byId('result.sentiment');
    await expect(view.getByRole('heading', { name: 'Sentiment' })).toBeVisible();
    const labels = app.byId('result.sentiment-label');
    await expect(labels).toHaveText(['+ Positive', '− Negative', '+ Positive', '· Neutral']);

    // The shares: the whole file, then each speaker in words.
    const shares = app.byId('result.sentiment-share');
    await expect(shares).toHaveCount(3);
    await expect(shares.nth(0).locator('p')).toHaveText(/^Whole file \(0:\d\d\): /);
    await expect(shares.nth(1).locator('p')).toHaveText(/^speaker_0 \(0:0\d\): 100% positive$/);
    await expect(shares.nth(2).locator('p')).toHaveText(
      /^speaker_1 \(0:0\d\): \d+% negative · \d+% neutral$/,
    );

    // The lane: a block a sentence, each named in words.
    const blocks = app.byId('timeline.sentiment-block');
    await expect(blocks).toHaveCount(4);
    await expect(blocks.nth(1)).toHaveAttribute('data-sentiment', 'negative');
    await expect(blocks.nth(1)).toHaveAccessibleName(
      /^Negative, 0:0\d to 0:0\d: the train was late and the food was bad\. Play from here$/,
    );
    await page.screenshot({ path: 'test-results/screens/sentiment-result.png', fullPage: true });

    // Only the negative moments, then all again.
    const filter = view.getByRole('checkbox', { name: 'Show negative moments only' });
    await filter.check();
    await expect(labels).toHaveText(['− Negative']);
    await expect(app.byId('result.sentiment-sentence')).toContainText(
      'the train was late and the food was bad',
    );
    // Its sentence plays from where it was said.
    await app.byId('result.sentiment-sentence').getByRole('button').click();
    const player = app.byId('result.player');
    await expect
      .poll(() => player.evaluate((p: HTMLMediaElement) => p.currentTime))
      .toBeGreaterThanOrEqual(talk.turns[1]!.begin - 0.5);
    await player.evaluate((p: HTMLMediaElement) => p.pause());
    await filter.uncheck();
    await expect(labels).toHaveCount(4);

    for (const scheme of ['light', 'dark'] as const) {
      for (const viewport of [
        { width: 1366, height: 900 },
        { width: 390, height: 844 },
      ]) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize(viewport);
        expect(await seriousViolations(page), `${scheme} ${viewport.width}`).toEqual([]);
      }
    }
    await page.screenshot({
      path: 'test-results/screens/sentiment-phone-dark.png',
      fullPage: true,
    });
  });

  test('with an emotion model chosen, each sentence long enough gets the emotion of its voice', async ({
    page,
    baseURL,
  }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const said = mannerSentences('en', 9700, 4);
    const recording = mannerRecording(info.outputDir, 'voices', 'en', said);
    await useLocalModels(page, baseURL!);
    const app = new AppPage(page);
    await app.goto();
    await app.chooseFile(recording.path);
    await app.toggle('toggle_emotion_recognition');
    const picker = app.byId('options.emotion_model');
    await expect(picker).toHaveValue('');
    await expect(page.locator('#field-emotion_model-hint')).toHaveText(
      'Not read: each sentence gets its sentiment from its words only.',
    );
    await picker.selectOption('murmur-test/emotion-synth');
    await expect(page.locator('#field-emotion_model-hint')).toHaveText(
      'Downloaded the first time it is used (about 1 MB). Licence: MIT. A sentence under a second, or one the model is not sure of, gets no emotion.',
    );
    await app.submit();
    await app.expectResult(200_000);

    const sentences = app.byId('result.sentiment-sentence');
    await expect(sentences.first()).toBeVisible();
    const shown = await sentences.evaluateAll((items) =>
      items.map(
        (item) => item.querySelector('[data-testid="result.emotion-label"]')?.textContent ?? null,
      ),
    );
    const result = JSON.parse(
      readFileSync(await (await app.download('json')).path(), 'utf8'),
    ) as TranscriptionResponse;
    const emotions = result.prediction_raw.emotions!;
    expect(shown).toEqual(emotions.map((e) => (e.emotion === null ? null : `Voice: ${e.emotion}`)));
    const right = emotions.filter(
      (e) => e.emotion === said[partAt(recording, (e.time_begin + e.time_end) / 2) ?? -1]?.manner,
    );
    expect(right.length).toBeGreaterThanOrEqual(3);
    await page.screenshot({ path: 'test-results/screens/sentiment-voice.png', fullPage: true });

    // Nothing said here sounds negative: the filter says so.
    expect(emotions.some((e) => e.sentiment === 'negative')).toBe(false);
    await app
      .byId('result.sentiment')
      .getByRole('checkbox', { name: 'Show negative moments only' })
      .check();
    await expect(app.byId('result.sentiment-empty')).toHaveText('No sentence sounds negative.');
    await expect(sentences).toHaveCount(0);
  });
});
