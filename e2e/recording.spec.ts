import { readFileSync } from 'node:fs';
import { expect, test, type Browser, type Page, type TestInfo } from '@playwright/test';
import type { TranscriptionResponse } from '../src/core/contract/response';
import { wordErrorRate } from '../tools/testing/wer';
import { seriousViolations } from './fixtures/axe';
import { MICROPHONE_WAV, TAB_WAV } from './fixtures/recording-audio';
import { useLocalModels } from './fixtures/test-models';
import { RecorderPage } from './pages/recorder-page';

/** How long a fixture's sound lasts, from its size (16-bit mono at 16 kHz, 44-byte header). */
function wavSeconds(path: string): number {
  return (readFileSync(path).length - 44) / 2 / 16000;
}

/**
 * A page in a browser of its own: the fake microphone plays its file once per browser, from when
 * the browser first opens it, so a test that needs the speech from its start needs its own.
 */
async function freshPage(
  playwright: { chromium: { launch: (o: object) => Promise<Browser> } },
  info: TestInfo,
  baseURL: string,
): Promise<{ page: Page; close: () => Promise<void> }> {
  const browser = await playwright.chromium.launch(info.project.use.launchOptions!);
  const context = await browser.newContext({ baseURL, acceptDownloads: true });
  return { page: await context.newPage(), close: () => browser.close() };
}

async function open(page: Page, baseURL: string): Promise<RecorderPage> {
  await useLocalModels(page, baseURL);
  const recorder = new RecorderPage(page);
  await recorder.app.goto();
  return recorder;
}

/** Segments' text of one channel in the result's JSON download. */
async function channelText(recorder: RecorderPage, channel: string): Promise<string> {
  const download = await recorder.app.download('json');
  const response = JSON.parse(readFileSync(await download.path(), 'utf8')) as TranscriptionResponse;
  return response.prediction_raw.transcription
    .filter((s) => s.channel === channel)
    .map((s) => s.transcription.trim())
    .join(' ');
}

/**
 * A tab share made in the page: headless Chromium has no tab to share, so getDisplayMedia gives
 * a WebAudio source playing `wav` (none: no sound at all) beside a drawn picture, as a browser
 * gives a tab's picture and sound.
 */
async function fakeTabShare(page: Page, wav: string | null): Promise<void> {
  const audio = wav === null ? null : readFileSync(wav).toString('base64');
  await page.addInitScript((base64) => {
    navigator.mediaDevices.getDisplayMedia = async () => {
      const canvas = document.createElement('canvas');
      canvas.getContext('2d')?.fillRect(0, 0, 10, 10);
      const stream = canvas.captureStream(5);
      if (base64 === null) return stream;
      const context = new AudioContext();
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const source = context.createBufferSource();
      source.buffer = await context.decodeAudioData(bytes.buffer);
      const out = context.createMediaStreamDestination();
      source.connect(out);
      source.start();
      for (const track of out.stream.getAudioTracks()) stream.addTrack(track);
      return stream;
    };
  }, audio);
}

test.describe('recording in the page', () => {
  test.setTimeout(240_000);

  test('a recording from the microphone is transcribed as its file is', async ({
    playwright,
    baseURL,
  }, info) => {
    const { page, close } = await freshPage(playwright, info, baseURL!);
    try {
      const recorder = await open(page, baseURL!);
      expect(await seriousViolations(page), 'idle').toEqual([]);
      await recorder.app.chooseFile(MICROPHONE_WAV);
      await recorder.app.submit();
      const fromFile = await recorder.resultText();
      expect(fromFile.length).toBeGreaterThan(0);

      await recorder.record();
      const meter = recorder.meter('Microphone');
      await expect(meter).toBeVisible();
      await expect
        .poll(async () => Number(await meter.getAttribute('value')), { timeout: 20_000 })
        .toBeGreaterThan(0.05);
      await expect(page).toHaveTitle('● Recording — Murmur');
      expect(await seriousViolations(page), 'recording').toEqual([]);
      await recorder.waitForElapsed(Math.ceil(wavSeconds(MICROPHONE_WAV)) + 1);
      // Live captions before Stop: settled lines of what was said, in the live region.
      const settled = recorder.byId('record.captions-settled');
      await expect
        .poll(async () => wordErrorRate(fromFile, await settled.innerText()), { timeout: 30_000 })
        .toBeLessThanOrEqual(0.35);
      await expect(settled).toHaveAttribute('aria-live', 'polite');
      await expect(recorder.byId('record.captions-problem')).toHaveCount(0);
      await recorder.stop();
      const fromRecording = await recorder.resultText('recording');
      await expect(page).toHaveTitle('Murmur — transcription in your browser');
      // The fake microphone resamples the file twice on its way (to the device's rate and back):
      // the same speech, not the same samples, starting a little later each run: a word or two of
      // the small test model's may differ.
      test
        .info()
        .annotations.push({ type: 'texts', description: `${fromFile} | ${fromRecording}` });
      expect(wordErrorRate(fromFile, fromRecording)).toBeLessThanOrEqual(0.2);
      await expect(recorder.byId('media.file-name')).toContainText(
        /^Recording \d{4}-\d\d-\d\d \d\d-\d\d\.wav$/,
      );

      // The recording itself, as saved: a WAV as long as what was recorded.
      const download = await recorder.downloadRecording();
      expect(download.suggestedFilename()).toMatch(/^Recording .*\.wav$/);
      expect(wavSeconds(await download.path())).toBeGreaterThan(wavSeconds(MICROPHONE_WAV));
    } finally {
      await close();
    }
  });

  test('pausing leaves the paused time out, and Resume goes on', async ({ page, baseURL }) => {
    const recorder = await open(page, baseURL!);
    await recorder.record();
    await recorder.waitForElapsed(2);
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect(recorder.byId('record.status')).toContainText('Paused at');
    const paused = await recorder.elapsed();
    await page.waitForTimeout(2500);
    expect(await recorder.elapsed()).toBe(paused);
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect(recorder.byId('record.status')).toContainText('Recording');
    await recorder.waitForElapsed(paused + 2);
    const total = await recorder.elapsed();
    await recorder.stop();
    await recorder.resultText('recording');
    const download = await recorder.downloadRecording();
    // The file holds what was recorded, not the 2.5 s of pause.
    expect(wavSeconds(await download.path())).toBeGreaterThanOrEqual(total);
    expect(wavSeconds(await download.path())).toBeLessThan(total + 2);
  });

  test('a reload mid-recording offers the recording back, whole', async ({
    playwright,
    baseURL,
  }, info) => {
    const { page, close } = await freshPage(playwright, info, baseURL!);
    try {
      const recorder = await open(page, baseURL!);
      await recorder.record();
      await recorder.waitForElapsed(7);
      const recorded = await recorder.elapsed();
      const startedNear = Date.now() - recorded * 1000;
      await page.reload();
      const title = recorder.byId('record.stored-title');
      await expect(title).toHaveCount(1);
      const text = (await title.textContent()) ?? '';
      const [, hh, mm, seconds] = text.match(/^Recording of (\d\d):(\d\d), (\d+) s$/) ?? [];
      const started = new Date(startedNear);
      const minutes = [started, new Date(startedNear - 60_000)].map(
        (d) =>
          `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`,
      );
      expect(minutes).toContain(`${hh}:${mm}`);
      // Everything up to the last block written (every 2 s) is there.
      expect(Number(seconds)).toBeGreaterThanOrEqual(recorded - 3);
      expect(Number(seconds)).toBeLessThanOrEqual(recorded + 1);
      expect(await seriousViolations(page), 'recording offered back').toEqual([]);

      await page.getByRole('button', { name: `Transcribe ${text}` }).click();
      expect((await recorder.resultText('recording')).length).toBeGreaterThan(0);
      // Transcribed, it is in the history and no longer offered.
      await expect(title).toHaveCount(0);
      await page.reload();
      await expect(recorder.byId('history.item')).toHaveCount(1);
      await expect(title).toHaveCount(0);
    } finally {
      await close();
    }
  });

  test('a stored recording is deleted only once confirmed', async ({ page, baseURL }) => {
    const recorder = await open(page, baseURL!);
    await recorder.record();
    await recorder.waitForElapsed(3);
    await page.reload();
    const title = (await recorder.byId('record.stored-title').textContent()) ?? '';
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: `Download ${title}` }).click(),
    ]);
    expect(wavSeconds(await download.path())).toBeGreaterThan(1);
    await page.getByRole('button', { name: `Delete ${title}` }).click();
    await expect(recorder.byId('record.stored')).toContainText('Delete this recording for good?');
    await page.getByRole('button', { name: 'Keep' }).click();
    await page.getByRole('button', { name: `Delete ${title}` }).click();
    await recorder.byId('record.stored-confirm-delete').click();
    await expect(recorder.byId('record.stored')).toHaveCount(0);
    await page.reload();
    await expect(recorder.byId('record.panel')).toBeVisible();
    await expect(recorder.byId('record.stored')).toHaveCount(0);
  });

  test('both sources record two channels, the tab on channel 1', async ({
    playwright,
    baseURL,
  }, info) => {
    const { page, close } = await freshPage(playwright, info, baseURL!);
    try {
      await fakeTabShare(page, TAB_WAV);
      const recorder = await open(page, baseURL!);
      await recorder.chooseSource('both');
      await recorder.record();
      await expect(recorder.meter('Microphone')).toBeVisible();
      await expect(recorder.meter('Tab')).toBeVisible();
      await recorder.waitForElapsed(Math.ceil(wavSeconds(MICROPHONE_WAV)) + 1);
      await recorder.stop();
      await recorder.resultText('recording');
      expect((await channelText(recorder, 'channel_0')).length).toBeGreaterThan(0);
      expect((await channelText(recorder, 'channel_1')).length).toBeGreaterThan(0);
    } finally {
      await close();
    }
  });
});

test.describe('what stops a recording, said plainly', () => {
  test('a refused microphone is explained', async ({ playwright, baseURL }, info) => {
    // A browser that asks, as a user's does (no prompt answered yes for it), in a context given
    // no permission: Playwright answers the browser's question with a refusal.
    const launch = info.project.use.launchOptions!;
    const browser = await playwright.chromium.launch({
      ...launch,
      args: launch.args!.filter((a) => a !== '--use-fake-ui-for-media-stream'),
    });
    try {
      const page = await (await browser.newContext({ baseURL: baseURL! })).newPage();
      const recorder = await open(page, baseURL!);
      await page.getByRole('button', { name: 'Record', exact: true }).click();
      await expect(recorder.byId('record.problem')).toHaveText(
        "The browser was not allowed to use the microphone, so nothing is recorded. Allow it for this site (in the address bar's site settings) and press Record again.",
      );
      await expect(page.getByRole('button', { name: 'Record', exact: true })).toBeEnabled();
    } finally {
      await browser.close();
    }
  });

  test('no microphone is explained', async ({ page, baseURL }) => {
    await page.addInitScript(() => {
      navigator.mediaDevices.getUserMedia = () =>
        Promise.reject(new DOMException('Requested device not found', 'NotFoundError'));
    });
    const recorder = await open(page, baseURL!);
    await page.getByRole('button', { name: 'Record', exact: true }).click();
    await expect(recorder.byId('record.problem')).toHaveText(
      'No microphone was found. Plug one in (or choose another in the list) and press Record again.',
    );
  });

  test('a tab shared without its sound is explained', async ({ page, baseURL }) => {
    await fakeTabShare(page, null);
    const recorder = await open(page, baseURL!);
    await recorder.chooseSource('tab');
    await page.getByRole('button', { name: 'Record', exact: true }).click();
    await expect(recorder.byId('record.problem')).toHaveText(
      'The tab or screen you chose shares no sound. Press Record again, choose a tab, and tick “Share tab audio” (for a whole screen: “Share system audio”) before pressing Share.',
    );
  });

  test('a microphone unplugged mid-way stops and keeps the recording', async ({
    playwright,
    baseURL,
  }, info) => {
    const { page, close } = await freshPage(playwright, info, baseURL!);
    try {
      test.setTimeout(240_000);
      await page.addInitScript(() => {
        const open = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
        navigator.mediaDevices.getUserMedia = async (constraints) => {
          const stream = await open(constraints);
          (window as unknown as { opened: MediaStream[] }).opened = [stream];
          return stream;
        };
      });
      const recorder = await open(page, baseURL!);
      await recorder.record();
      await recorder.waitForElapsed(6);
      // What the browser does when the device goes away: the track ends.
      await page.evaluate(() => {
        const [stream] = (window as unknown as { opened: MediaStream[] }).opened;
        for (const track of stream!.getAudioTracks()) {
          track.stop();
          track.dispatchEvent(new Event('ended'));
        }
      });
      await expect(recorder.byId('record.problem')).toHaveText(
        'The microphone stopped (unplugged or switched off). What was recorded until then is kept.',
      );
      expect((await recorder.resultText('recording')).length).toBeGreaterThan(0);
      await expect(recorder.byId('record.problem')).toBeVisible();
    } finally {
      await close();
    }
  });
});
