import { expect, type Download, type Locator, type Page } from '@playwright/test';

/** The one page of the app, as a user sees it. */
export class AppPage {
  constructor(readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto('/');
    await this.page.getByTestId('form.submit').waitFor();
  }

  byId(testId: string): Locator {
    return this.page.getByTestId(testId);
  }

  async chooseFile(path: string): Promise<void> {
    await this.byId('media.file').setInputFiles(path);
  }

  async chooseBytes(name: string, mimeType: string, buffer: Buffer): Promise<void> {
    await this.byId('media.file').setInputFiles({ name, mimeType, buffer });
  }

  async setUrl(url: string): Promise<void> {
    await this.byId('media.url').fill(url);
  }

  async chooseBehaviour(
    value: 'automatic single language' | 'automatic multiple languages' | 'manual',
  ): Promise<void> {
    await this.page
      .locator(`label:has([data-testid="options.language_behaviour.${value.replace(/ /g, '-')}"])`)
      .click();
  }

  async toggle(name: string): Promise<void> {
    await this.page.locator(`label:has([data-testid="options.${name}"])`).click();
  }

  async fill(name: string, value: string): Promise<void> {
    await this.byId(`options.${name}`).fill(value);
  }

  async submit(): Promise<void> {
    await this.byId('form.submit').click();
  }

  /** Waits for the transcription to end, and requires that it ended with a result, not an error. */
  async expectResult(timeout: number): Promise<void> {
    await expect(this.byId('result').or(this.byId('job.error'))).toBeVisible({ timeout });
    await expect(this.byId('job.error')).toHaveCount(0);
  }

  fieldError(field: string): Locator {
    return this.byId(`error.${field}`);
  }

  async openSavedResult(path: string): Promise<void> {
    await this.byId('result.open').setInputFiles(path);
  }

  async download(
    format:
      | 'srt'
      | 'vtt'
      | 'txt'
      | 'json'
      | 'readable-srt'
      | 'readable-vtt'
      | 'docx'
      | 'html'
      | 'markdown'
      | 'chapters'
      | 'chapters-vtt',
  ): Promise<Download> {
    const [download] = await Promise.all([
      this.page.waitForEvent('download'),
      this.byId(`download.${format}`).click(),
    ]);
    return download;
  }
}
