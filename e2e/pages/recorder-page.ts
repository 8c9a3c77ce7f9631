import { expect, type Download, type Locator, type Page } from '@playwright/test';
import { AppPage } from './app-page';

/** The title a recording's result is shown under (its file's name without `.wav`). */
const RECORDING_NAME = /^Recording \d{4}-\d\d-\d\d \d\d-\d\d$/;

/** Recording in the Media section, as a user sees it. */
export class RecorderPage {
  readonly app: AppPage;

  constructor(readonly page: Page) {
    this.app = new AppPage(page);
  }

  byId(testId: string): Locator {
    return this.page.getByTestId(testId);
  }

  async chooseSource(source: 'microphone' | 'tab' | 'both'): Promise<void> {
    await this.page.locator(`label:has([data-testid="record.source-${source}"])`).click();
  }

  async record(): Promise<void> {
    await this.page.getByRole('button', { name: 'Record', exact: true }).click();
    await expect(this.byId('record.elapsed')).toBeVisible();
  }

  async stop(): Promise<void> {
    await this.page.getByRole('button', { name: 'Stop', exact: true }).click();
  }

  /** Seconds shown as recorded (m:ss). */
  async elapsed(): Promise<number> {
    const text = (await this.byId('record.elapsed').textContent()) ?? '';
    const [m, s] = text.split(':').map(Number);
    return (m ?? 0) * 60 + (s ?? 0);
  }

  async waitForElapsed(seconds: number): Promise<void> {
    await expect.poll(() => this.elapsed(), { timeout: 60_000 }).toBeGreaterThanOrEqual(seconds);
  }

  /** The recording as saved by "Download recording (WAV)". */
  async downloadRecording(): Promise<Download> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.page.getByRole('button', { name: 'Download recording (WAV)' }).click(),
    ]);
    return download;
  }

  meter(name: string): Locator {
    return this.page.getByRole('meter', { name: `${name} level` });
  }

  /**
   * The segments' text once the transcription has ended (failing on its error). `of: 'recording'`
   * waits for the recording's result: until its transcription starts, the result shown before it
   * stays on the page.
   */
  async resultText(of: 'file' | 'recording' = 'file'): Promise<string> {
    await expect(this.byId('result').or(this.byId('job.error'))).toBeVisible({
      timeout: 150_000,
    });
    await expect(this.byId('job.error')).toHaveCount(0);
    if (of === 'recording') {
      await expect(this.byId('result.title')).toHaveText(RECORDING_NAME, { timeout: 150_000 });
    }
    return (await this.byId('result.segment-text').allInnerTexts()).join(' ');
  }
}
