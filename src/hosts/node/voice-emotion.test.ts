import { afterAll, describe, expect, it } from 'vitest';
import { rmSync } from 'node:fs';
import type { TranscriptionResponse } from '../../core/contract/response';
import { scratchDir, type TestLanguage } from '../../../tools/testing/speech';
import {
  mannerRecording,
  mannerSentences,
  partAt,
  type MannerSentence,
} from '../../../tools/testing/manner-speech';
import { REPO, TEST_WHISPER_ID } from '../../../tools/testing/ffmpeg-fixtures';
import { runCli } from '../../../tools/testing/cli-run';

const models = ['--models', `${REPO}/.models`, '--model', TEST_WHISPER_ID];
const TEST_EMOTION = 'murmur-test/emotion-synth';

const dir = scratchDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function transcribe(path: string, ...fields: string[]) {
  const { code, stdout, stderr } = await runCli('transcribe', path, ...models, ...fields);
  return {
    code,
    stderr,
    response: code === 0 ? (JSON.parse(stdout) as TranscriptionResponse) : null,
  };
}

describe('emotion from the voice, with the made-here emotion model', () => {
  it.each([
    ['en', 9300],
    ['de', 9400],
  ] as const)(
    'finds the manner most sentences were spoken in (%s), and an emotion only where sure',
    async (language: TestLanguage, seed: number) => {
      const said = mannerSentences(language, seed, 8);
      const recording = mannerRecording(dir, `manners-${language}`, language, said);
      const { code, response } = await transcribe(
        recording.path,
        ...['--toggle_emotion_recognition', 'true', '--emotion_model', TEST_EMOTION],
      );
      expect(code).toBe(0);
      const emotions = response!.prediction_raw.emotions!;
      // Each sentence found is judged by the manner of the part said at its middle.
      const mannerOf = (e: (typeof emotions)[number]) =>
        said[partAt(recording, (e.time_begin + e.time_end) / 2) ?? -1]?.manner;
      const right = emotions.filter((e) => e.emotion === mannerOf(e)).length;
      expect(right).toBeGreaterThanOrEqual(Math.ceil(0.75 * said.length));
      for (const e of emotions) {
        if (e.emotion === null) expect(e.emotion_confidence).toBeNull();
        else expect(e.emotion_confidence).toBeGreaterThanOrEqual(0.5);
      }
      expect(response!.prediction_raw.metadata.emotion_time).toBeGreaterThan(0);
    },
  );

  it('gives no emotion to a sentence under a second', async () => {
    const said: MannerSentence[] = [
      { text: 'the music is very good today', manner: 'happy' },
      { text: 'hello', manner: 'happy' },
    ];
    const { path } = mannerRecording(dir, 'short', 'en', said);
    const { response } = await transcribe(
      path,
      ...['--toggle_emotion_recognition', 'true', '--emotion_model', TEST_EMOTION],
    );
    const emotions = response!.prediction_raw.emotions!;
    const short = emotions.filter((e) => e.time_end - e.time_begin < 1);
    expect(short.length).toBeGreaterThan(0);
    for (const e of short) expect([e.emotion, e.emotion_confidence]).toEqual([null, null]);
    expect(emotions.some((e) => e.emotion !== null)).toBe(true);
  });

  it('tells no emotion without a model, and refuses a model it cannot load, naming it', async () => {
    const said = mannerSentences('en', 9500, 2);
    const { path } = mannerRecording(dir, 'refusals', 'en', said);
    const plain = await transcribe(path, '--toggle_emotion_recognition', 'true');
    expect(plain.response!.prediction_raw.emotions!.map((e) => e.emotion)).toEqual([null, null]);

    const malformed = await transcribe(
      path,
      ...['--toggle_emotion_recognition', 'true', '--emotion_model', 'not a model'],
    );
    expect(malformed.code).not.toBe(0);
    expect(malformed.stderr).toContain(
      '--emotion_model must be a model id as the model host names it (owner/name); got "not a model".',
    );

    const missing = await transcribe(
      path,
      ...['--toggle_emotion_recognition', 'true', '--emotion_model', 'murmur-test/no-such-model'],
    );
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain(
      'The emotion model "murmur-test/no-such-model" could not be loaded',
    );
    expect(missing.stderr).toContain('Check the model (--emotion_model ID) and the model host');

    const ignored = await runCli(
      'transcribe',
      path,
      ...models,
      ...['--emotion_model', TEST_EMOTION, '--output_format', 'json'],
    );
    expect(ignored.code).toBe(0);
    expect(ignored.stderr).toContain(
      'emotion_model was ignored because toggle_emotion_recognition is off.',
    );
    expect(
      (JSON.parse(ignored.stdout) as TranscriptionResponse).prediction_raw.emotions,
    ).toBeUndefined();
  });
});
