import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { parseSync } from 'subtitle';
import { spokenFile } from './fixtures/speech-files';
import { useLocalModels } from './fixtures/test-models';
import { AppPage } from './pages/app-page';

test.describe('transcribing in the browser', () => {
  test.setTimeout(180_000);

  test('drop a file, watch progress, read segments, download SRT and VTT', async ({
    page,
    baseURL,
  }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const speech = spokenFile(info.outputDir, 'talk', [
      { language: 'en', seed: 101, words: 8 },
      { language: 'en', seed: 102, words: 9 },
    ]);
    await useLocalModels(page, baseURL!);
    const app = new AppPage(page);
    await app.goto();
    await app.chooseFile(speech.path);
    await app.byId('options.output_format').selectOption('srt');
    await app.submit();

    await expect(app.byId('job.progress')).toBeVisible();
    await app.expectResult(150_000);
    const segments = app.byId('result.segment-text');
    expect(await segments.count()).toBeGreaterThan(0);
    const text = (await segments.allInnerTexts()).join(' ');
    expect(text.length).toBeGreaterThan(0);
    await page.screenshot({ path: 'test-results/screens/transcribed.png', fullPage: true });

    // SRT, read by an independent parser.
    const srt = readFileSync(await (await app.download('srt')).path(), 'utf8');
    const cues = parseSync(srt).filter((n) => n.type === 'cue');
    expect(cues).toHaveLength(await segments.count());
    expect(cues.map((c) => (c.type === 'cue' ? c.data.text.trim() : '')).join(' ')).toBe(text);
    expect(await app.byId('result.prediction').textContent()).toBe(srt);

    // VTT, read by the browser's own WebVTT parser through a <track>.
    const vtt = readFileSync(await (await app.download('vtt')).path(), 'utf8');
    const browserCues = await page.evaluate(async (body) => {
      const video = document.createElement('video');
      const track = document.createElement('track');
      track.kind = 'captions';
      track.default = true;
      track.src = URL.createObjectURL(new Blob([body], { type: 'text/vtt' }));
      video.append(track);
      document.body.append(video);
      track.track.mode = 'hidden';
      await new Promise((done, fail) => {
        track.addEventListener('load', done);
        track.addEventListener('error', fail);
      });
      return [...(track.track.cues ?? [])].map((c) => (c as VTTCue).text);
    }, vtt);
    expect(browserCues).toHaveLength(cues.length);

    // The player is named by the file it plays.
    expect(await app.byId('result.player').getAttribute('aria-label')).toBe('Player: talk.wav');

    // Choosing a segment moves playback to it.
    await app.byId('result.segment-time').last().click();
    const start = Number(
      (await app.byId('result.segment-time').last().getAttribute('aria-label'))
        ?.match(/(\d+):(\d+)/)
        ?.slice(1)
        .reduce((m, s) => m * 60 + Number(s), 0),
    );
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            (document.querySelector('[data-testid="result.player"]') as HTMLMediaElement)
              .currentTime,
        ),
      )
      .toBeGreaterThanOrEqual(start);
  });

  test('cancel stops the work and leaves the app usable', async ({ page, baseURL }, info) => {
    mkdirSync(info.outputDir, { recursive: true });
    const speech = spokenFile(
      info.outputDir,
      'long',
      Array.from({ length: 12 }, (_, i) => ({ language: 'en' as const, seed: 200 + i, words: 12 })),
    );
    await useLocalModels(page, baseURL!);
    const app = new AppPage(page);
    await app.goto();
    await app.chooseFile(speech.path);
    await app.submit();
    await expect(app.byId('job.progress')).toContainText('Recognising', { timeout: 120_000 });
    const clicked = Date.now();
    await app.byId('form.cancel').click();
    await expect(app.byId('job.cancelled')).toBeVisible({ timeout: 1_000 });
    expect(Date.now() - clicked).toBeLessThan(1_000);
    await expect(app.byId('form.submit')).toBeEnabled();
    await expect(app.byId('media.file-name')).toHaveText('long.wav');
  });
});
