import { afterAll, describe, expect, it } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENDPOINTS } from '../../core/contract/endpoints';
import type { ErrorBody } from '../../core/contract/errors';
import type { TranscriptionResponse } from '../../core/contract/response';
import { scratchDir, spokenFile, type TestLanguage } from '../../../tools/testing/speech';
import { curl } from '../../../tools/testing/server/curl';
import { startServe } from '../../../tools/testing/server/serve-process';
import { REPO, TEST_WHISPER_ID } from '../../../tools/testing/ffmpeg-fixtures';
import { runCli } from '../../../tools/testing/cli-run';

const models = ['--models', `${REPO}/.models`, '--model', TEST_WHISPER_ID];

const dir = scratchDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Sentences plainly positive, negative, neutral, and a negated positive, in each language: ones
 * the speech test model hears well enough to keep the words that carry their sentiment.
 */
const SAID: Record<TestLanguage, readonly string[]> = {
  en: [
    'the coffee is very good',
    'the train was late and the food was bad',
    'the meeting is on monday',
    'my friend was never happy',
  ],
  fr: [
    'le café est très bon',
    'le train est mauvais',
    'la maison est dans la ville',
    'le pain est jamais bon',
  ],
  de: [
    'der Kaffee ist sehr gut',
    'das Buch ist schlecht',
    'das Haus ist in der Stadt',
    'das Brot ist nie gut',
  ],
  es: [
    'el café es muy bueno',
    'el libro es malo',
    'la casa es de la ciudad',
    'el pan nunca es bueno',
  ],
};
const EXPECTED = ['positive', 'negative', 'neutral', 'negative'];

function recording(language: TestLanguage) {
  return spokenFile(
    dir,
    `sentiment-${language}`,
    SAID[language].map((text) => ({ language, text })),
  );
}

describe('sentiment of each sentence', () => {
  it.each(['en', 'fr', 'de', 'es'] as const)(
    'finds plainly positive, negative and neutral sentences, and a negation, in %s (CLI)',
    async (language) => {
      const file = recording(language);
      const { code, stdout } = await runCli(
        'transcribe',
        file.path,
        ...models,
        '--toggle_emotion_recognition',
        'true',
      );
      expect(code).toBe(0);
      const raw = (JSON.parse(stdout) as TranscriptionResponse).prediction_raw;
      const emotions = raw.emotions!;
      expect(emotions.map((e) => e.sentiment)).toEqual(EXPECTED);
      emotions.forEach((e, i) => {
        const segment = raw.transcription[i]!;
        expect(e.text).toBe(segment.transcription.trim());
        // A sentence is timed by its words: from its first word's start to its last word's end.
        const words = segment.words.filter((w) => w.word.trim() !== '');
        expect([e.time_begin, e.time_end]).toEqual([words[0]!.time_begin, words.at(-1)!.time_end]);
        expect([e.speaker, e.channel]).toEqual([segment.speaker, segment.channel]);
        expect(e.confidence).toBeGreaterThan(0);
        expect(e.confidence).toBeLessThanOrEqual(1);
        expect([e.emotion, e.emotion_confidence]).toEqual([null, null]);
      });
      expect(raw.emotions_note).toBeUndefined();
      expect(raw.metadata.emotion_time).toBeGreaterThan(0);

      // The shares are of the time said: the two negative sentences' time over all four.
      const { file: whole, speakers } = raw.emotions_summary!;
      const length = (i: number) => emotions[i]!.time_end - emotions[i]!.time_begin;
      const total = [0, 1, 2, 3].reduce((sum, i) => sum + length(i), 0);
      expect(whole.seconds).toBeCloseTo(total, 2);
      expect(whole.negative).toBeCloseTo((length(1) + length(3)) / total, 2);
      expect(whole.positive).toBeCloseTo(length(0) / total, 2);
      expect(whole.mixed).toBe(0);
      expect(speakers).toEqual([
        { speaker: 'speaker_not_activated', channel: 'channel_0', ...whole },
      ]);
    },
  );

  it('opens a document with the sentiment, unless asked not to (export)', async () => {
    const { stdout } = await runCli(
      'transcribe',
      recording('en').path,
      ...models,
      ...['--toggle_emotion_recognition', 'true'],
    );
    const saved = join(dir, 'felt.json');
    writeFileSync(saved, stdout);
    const markdown = await runCli('export', saved, '--to', 'md');
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toMatch(
      /\n## Sentiment\n\n- Whole file: \d+% positive · \d+% negative · \d+% neutral\n\n### Negative moments\n\n- \\\[0:0\d\\\] the train was late and the food was bad\n/,
    );
    const plain = await runCli('export', saved, '--to', 'md', '--sentiment', 'false');
    expect(plain.stdout).not.toContain('Sentiment');
    const wrong = await runCli('export', saved, '--to', 'md', '--sentiment', 'yes');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('--sentiment takes true or false; got "yes".');
  });

  it('adds nothing without the toggle, and emotion_time stays 0', async () => {
    const { code, stdout } = await runCli('transcribe', recording('en').path, ...models);
    expect(code).toBe(0);
    const raw = (JSON.parse(stdout) as TranscriptionResponse).prediction_raw;
    expect(raw.emotions).toBeUndefined();
    expect(raw.emotions_summary).toBeUndefined();
    expect(raw.emotions_note).toBeUndefined();
    expect(raw.metadata.emotion_time).toBe(0);
  });

  it('answers the service with each sentence and its speaker, and refuses a value it cannot read', async () => {
    const file = recording('de');
    const server = await startServe(['--no-auth']);
    try {
      const answer = await curl([
        ...['-F', `audio=@${file.path}`],
        ...['-F', 'toggle_emotion_recognition=true'],
        `${server.url}${ENDPOINTS.audio.path}`,
      ]);
      expect(answer.status).toBe(200);
      const raw = (answer.json() as unknown as TranscriptionResponse).prediction_raw;
      expect(raw.emotions!.map((e) => e.sentiment)).toEqual(EXPECTED);
      expect(raw.metadata.emotion_time).toBeGreaterThan(0);

      const refused = await curl([
        ...['-F', `audio=@${file.path}`],
        ...['-F', 'toggle_emotion_recognition=sometimes'],
        `${server.url}${ENDPOINTS.audio.path}`,
      ]);
      expect(refused.status).toBe(422);
      const body = refused.json() as unknown as ErrorBody;
      expect(body.field_errors!.map((e) => e.field)).toEqual(['toggle_emotion_recognition']);
    } finally {
      await server.stop();
    }
  });
});
