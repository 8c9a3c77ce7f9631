import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { readableCues } from '../src/core/format/readable-cues';
import { checkCues, checkSubtitles } from '../src/core/subtitles/check';
import { BBC, NETFLIX_EN, VERTICAL } from '../src/core/subtitles/profiles';
import { fixtureResponse } from './fixtures/response';
import { AppPage } from './pages/app-page';

/** Cue 2 reads too fast, cue 4 has a line too long (for every preset). */
const OWN_SRT = [
  '1',
  '00:00:01,000 --> 00:00:03,000',
  'A clean line.',
  '',
  '2',
  '00:00:04,000 --> 00:00:05,500',
  'This is far too much text for',
  'the time.',
  '',
  '3',
  '00:00:07,000 --> 00:00:09,000',
  'Another clean line.',
  '',
  '4',
  '00:00:10,000 --> 00:00:14,000',
  'A single line that runs on and on well past its limit.',
  '',
].join('\n');

test('checks the readable subtitles against the chosen profile, and a file of the user’s', async ({
  page,
}, info) => {
  const response = fixtureResponse();
  mkdirSync(info.outputDir, { recursive: true });
  const saved = info.outputPath('jfk.json');
  writeFileSync(saved, JSON.stringify(response));
  const own = info.outputPath('own.srt');
  writeFileSync(own, OWN_SRT);

  const app = new AppPage(page);
  await app.goto();
  await app.openSavedResult(saved);

  await page.getByText('Subtitle limits (readable SRT and VTT, captions)').click();
  const profile = app.byId('check.profile');
  await expect(profile.locator('option')).toHaveText([
    'Netflix (English)',
    'BBC',
    'Vertical video (9:16)',
    "Murmur's defaults (the limits below)",
  ]);
  await expect(profile).toHaveValue('custom');
  await expect(page.getByLabel('Profile', { exact: true })).toHaveValue('custom');

  const segments = response.prediction_raw.transcription;
  const duration = response.prediction_raw.metadata.provided_file_metadata.duration;
  await page.getByText('Check subtitles', { exact: true }).click();
  for (const preset of [VERTICAL, BBC, NETFLIX_EN]) {
    await profile.selectOption(preset.id);
    // The limits take the profile's values.
    await expect(app.byId('cues.maxLineChars')).toHaveValue(String(preset.maxLineChars));
    const cues = readableCues(segments, preset, duration);
    const findings = checkCues(cues, preset);
    await expect(app.byId('check.message')).toHaveText(findings.map((f) => f.message));
    const count = findings.length === 1 ? '1 finding' : `${findings.length} findings`;
    await expect(app.byId('check.summary')).toHaveText(
      findings.length === 0
        ? `No findings in ${cues.length} cues of the readable subtitles against ${preset.label}.`
        : `${count} in ${cues.length} cues of the readable subtitles against ${preset.label}.`,
    );
  }
  // A limit set by hand makes the profile the user's own.
  // Typed key by key, the field keeps its focus as the profile turns to the user's own.
  await app.byId('cues.maxLineChars').fill('');
  await app.byId('cues.maxLineChars').pressSequentially('300');
  await expect(app.byId('cues.maxLineChars')).toHaveValue('300');
  await expect(profile).toHaveValue('custom');
  await profile.selectOption('netflix-en');

  await expect(page.getByText('Check a subtitle file of your own (SRT or VTT)')).toBeVisible();
  await app.byId('check.open').setInputFiles(own);
  await expect(app.byId('check.summary')).toHaveText(
    '2 findings in 4 cues of own.srt against Netflix (English).',
  );
  await expect(app.byId('check.message')).toHaveText([
    'Cue 2 (00:00:04,000) reads at 26.0 characters a second; the profile allows 20.',
    'Cue 4 (00:00:10,000) has a line of 54 characters; the profile allows 42.',
  ]);
  await expect(app.byId('check.seek')).toHaveText(['00:00:04,000', '00:00:10,000']);
  await expect(app.byId('check.fix')).toHaveText(['Fix', 'Fix']);
  await expect(app.byId('check.fix').first()).toHaveAttribute(
    'title',
    'Extend the end to 00:00:05,950.',
  );
  await app.byId('check.fix').first().click();
  await expect(app.byId('check.message')).toHaveText([
    'Cue 4 (00:00:10,000) has a line of 54 characters; the profile allows 42.',
  ]);
  await expect(app.byId('check.fix')).toHaveAttribute('title', 'Re-wrap the lines.');
  await app.byId('check.fix').click();
  await expect(app.byId('check.finding')).toHaveCount(0);
  await expect(app.byId('check.summary')).toHaveText(
    'No findings in 4 cues of own.srt against Netflix (English).',
  );
  // The file with its fixes made can be taken away, in its own format, and checks clean.
  await expect(app.byId('check.download-srt')).toHaveText(
    'Download the fixed file (own-fixed.srt)',
  );
  await expect(app.byId('check.download-vtt')).toHaveCount(0);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    app.byId('check.download-srt').click(),
  ]);
  expect(download.suggestedFilename()).toBe('own-fixed.srt');
  const fixed = readFileSync((await download.path())!, 'utf8');
  expect(fixed).toBe(
    [
      '1',
      '00:00:01,000 --> 00:00:03,000',
      'A clean line.',
      '',
      '2',
      '00:00:04,000 --> 00:00:05,950',
      'This is far too much text for',
      'the time.',
      '',
      '3',
      '00:00:07,000 --> 00:00:09,000',
      'Another clean line.',
      '',
      '4',
      '00:00:10,000 --> 00:00:14,000',
      'A single line that runs on',
      'and on well past its limit.',
      '',
    ].join('\n'),
  );
  expect(checkSubtitles(fixed, NETFLIX_EN).findings).toEqual([]);

  await app.byId('check.profile').selectOption('vertical');
  await expect(app.byId('check.summary')).toHaveText(
    '3 findings in 4 cues of own.srt against Vertical video (9:16).',
  );
  await expect(app.byId('check.message')).toHaveText([
    'Cue 2 (00:00:04,000) has a line of 29 characters; the profile allows 26.',
    'Cue 2 (00:00:04,000) reads at 20.0 characters a second; the profile allows 17.',
    'Cue 4 (00:00:10,000) has a line of 27 characters; the profile allows 26.',
  ]);

  // A merge whose words would not fit two lines is not offered as a fix.
  const crowded = info.outputPath('crowded.srt');
  const long = 'Forty characters of words in one line..';
  writeFileSync(
    crowded,
    `1\n00:00:01,000 --> 00:00:01,300\nSo,\n\n2\n00:00:01,350 --> 00:00:03,550\n${long}\n${long}\n`,
  );
  await app.byId('check.profile').selectOption('netflix-en');
  await app.byId('check.open').setInputFiles(crowded);
  await expect(app.byId('check.message')).toHaveText([
    'Cue 1 (00:00:01,000) is on screen for 0.3 seconds; the profile asks for at least 0.833.',
    'Cue 1 (00:00:01,000) ends 0.05 seconds before the next cue; the profile asks for a gap of at least 0.083 seconds.',
    'Cue 2 (00:00:01,350) reads at 35.9 characters a second; the profile allows 20.',
  ]);
  await expect(app.byId('check.finding').first().getByTestId('check.fix')).toHaveCount(0);

  await expect(app.byId('check.readable')).toHaveText('Check the readable subtitles again');
  await app.byId('check.readable').click();
  await expect(app.byId('check.summary')).toContainText('of the readable subtitles against');
});
