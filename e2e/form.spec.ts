import { expect, test } from '@playwright/test';
import { AppPage } from './pages/app-page';

const shared = new URL('../../shared/', import.meta.url).pathname;
const jfk = `${shared}media/speech/jfk.wav`;

test.describe('the request form', () => {
  test('shows every option with the spec defaults', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto();
    await expect(app.byId('options.language_behaviour.automatic-single-language')).toBeChecked();
    await expect(app.byId('options.output_format')).toHaveValue('json');
    for (const name of [
      'toggle_noise_reduction',
      'toggle_diarization',
      'toggle_direct_translate',
    ]) {
      await expect(app.byId(`options.${name}`)).not.toBeChecked();
    }
    await expect(app.byId('options.transcription_hint')).toHaveValue('');
    await expect(app.byId('options.webhook_url')).toHaveValue('');
  });

  test('names each problem next to its field and keeps what was entered', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto();
    await app.setUrl('ftp://files.example.com/talk.mp3');
    await app.chooseBehaviour('manual');
    await app.fill('language', 'klingon');
    await app.toggle('toggle_diarization');
    await app.fill('diarization_min_speakers', '4');
    await app.fill('diarization_max_speakers', '2');
    await app.toggle('toggle_direct_translate');
    await app.fill('webhook_url', 'mailto:me@example.com');
    await app.fill('transcription_hint', 'Murmur, WebGPU');
    await app.submit();

    await expect(app.byId('form.problems')).toContainText('5 things to fix');
    await expect(app.fieldError('url')).toContainText('“Media link” must be a web address');
    await expect(app.fieldError('language')).toContainText('“klingon” is not a language');
    await expect(app.fieldError('diarization_min_speakers')).toContainText(
      '“At least” (4) is more than “At most” (2).',
    );
    await expect(app.fieldError('target_translation_language')).toContainText(
      'Choose a language in “Translate into”.',
    );
    await expect(app.fieldError('webhook_url')).toContainText('https://');
    // The page names its controls, not the service's fields.
    await expect(app.byId('form.problems')).not.toContainText(
      /audio_url|language_behaviour|_speakers/,
    );
    await expect(app.byId('options.language')).toHaveAttribute('aria-invalid', 'true');

    // Nothing typed is lost.
    await expect(app.byId('media.url')).toHaveValue('ftp://files.example.com/talk.mp3');
    await expect(app.byId('options.language')).toHaveValue('klingon');
    await expect(app.byId('options.transcription_hint')).toHaveValue('Murmur, WebGPU');
    await expect(app.byId('options.diarization_max_speakers')).toHaveValue('2');

    // Fixing a field clears its problem.
    await app.fill('language', 'english');
    await expect(app.fieldError('language')).toHaveCount(0);

    await page.screenshot({ path: 'test-results/screens/form-errors.png', fullPage: true });
  });

  test('asks for media when none is given', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto();
    await app.submit();
    await expect(app.fieldError('file')).toHaveText('Choose a recording or paste a link to one.');
  });

  test('switches to the video endpoint for a video file', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto();
    await app.chooseFile(`${shared}media/video/echo-hereweare.first12s.derived.mp4`);
    await expect(app.byId('media.endpoint-video')).toBeChecked();
    await app.chooseFile(jfk);
    await expect(app.byId('media.endpoint-audio')).toBeChecked();
    await expect(app.byId('media.file-name')).toHaveText('jfk.wav');
  });

  test('a valid request reaches the worker, which answers in the error shape', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto();
    await app.chooseFile(jfk);
    await app.submit();
    await expect(app.byId('job.error')).toBeVisible();
    await expect(app.byId('job.error')).toContainText('engine_unavailable');
    await expect(app.byId('media.file-name')).toHaveText('jfk.wav');
  });

  test('a refused option is named as the page shows it, with the language name', async ({
    page,
  }) => {
    const app = new AppPage(page);
    await app.goto();
    await app.chooseFile(jfk);
    await app.toggle('toggle_direct_translate');
    // Latin is a valid target that the default translation model (M2M100) cannot write.
    await app.fill('target_translation_language', 'latin');
    await app.submit();
    await expect(app.byId('job.error')).toContainText(
      'Translation into Latin is not available with the translation model Xenova/m2m100_418M',
    );
    await expect(app.byId('job.error')).toContainText('“Translate into”');
    await expect(app.byId('job.error')).toContainText('under Models');
    await expect(app.byId('job.error')).not.toContainText('"la"');
  });

  test('a script with no words is named by the label of its field', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto();
    await app.chooseFile(jfk);
    await app.toggle('align_script');
    await app.fill('script', '  \n ');
    await app.submit();
    const problems = app.byId('form.problems');
    await expect(problems.locator('p')).toHaveText('One thing to fix before transcribing:');
    await expect(problems.locator('li')).toHaveText([
      'Text that was said: The script has no words to time: give the text that was said.',
    ]);
    await expect(problems.getByRole('link', { name: 'Text that was said' })).toHaveAttribute(
      'href',
      '#field-script',
    );
    await problems.screenshot({ path: '/tmp/app-script-problem.png' });
  });
});
