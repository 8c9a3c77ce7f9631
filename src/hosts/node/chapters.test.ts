import { afterAll, describe, expect, it } from 'vitest';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENDPOINTS } from '../../core/contract/endpoints';
import type { ErrorBody } from '../../core/contract/errors';
import type { Chapter, TranscriptionResponse } from '../../core/contract/response';
import { scratchDir } from '../../../tools/testing/speech';
import { topicRecording, type Passage } from '../../../tools/testing/topic-speech';
import { curl } from '../../../tools/testing/server/curl';
import { startServe } from '../../../tools/testing/server/serve-process';
import { REPO, TEST_WHISPER_ID } from '../../../tools/testing/ffmpeg-fixtures';
import { runCli } from '../../../tools/testing/cli-run';

const models = ['--models', `${REPO}/.models`, '--model', TEST_WHISPER_ID];

const run = runCli;

const dir = scratchDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A chapter boundary is right when it falls within one sentence of where the passage starts. */
function expectBoundaryNear(chapter: Chapter, before: Passage, after: Passage) {
  const lastBefore = before.sentences[before.sentences.length - 1]!;
  const firstAfter = after.sentences[0]!;
  expect(chapter.time_begin).toBeGreaterThanOrEqual(lastBefore.start - 0.3);
  expect(chapter.time_begin).toBeLessThanOrEqual(firstAfter.end + 0.3);
}

/** Lower-cased words of a passage, and its theme's words. */
const passageWords = (p: Passage) =>
  new Set(p.sentences.flatMap((s) => s.text.toLowerCase().split(' ')));

function expectChaptersOf(response: TranscriptionResponse, passages: readonly Passage[]) {
  const chapters = response.prediction_raw.chapters!;
  expect(chapters).toHaveLength(passages.length);
  expect(response.prediction_raw.chapters_note).toBeUndefined();
  chapters.forEach((chapter, i) => {
    if (i > 0) expectBoundaryNear(chapter, passages[i - 1]!, passages[i]!);
    const own = passageWords(passages[i]!);
    const theme = new Set(passages[i]!.theme.words.map((w) => w.toLowerCase()));
    const keywords = chapter.keywords.map((k) => k.toLowerCase());
    // Recognition may miss a word, but what characterises a passage is its theme.
    expect(keywords.filter((k) => theme.has(k)).length).toBeGreaterThanOrEqual(3);
    expect(keywords.filter((k) => !own.has(k))).toEqual([]);
    const headline = chapter.headline.toLowerCase().split(' ');
    expect(headline.some((w) => theme.has(w))).toBe(true);
    expect(chapter.gist).not.toBe('');
    expect(chapter.summary).not.toBe('');
  });
}

describe('chapters and summaries of a transcript', () => {
  const english = topicRecording(dir, 'english', 'en', 3, { passages: 3, passageSeconds: 45 });

  it('cuts three passages on three topics into three chapters, and summarises them (CLI)', async () => {
    const { code, stdout } = await run(
      'transcribe',
      english.path,
      ...models,
      '--toggle_chapterization',
      'true',
      '--toggle_summarization',
      'true',
    );
    expect(code).toBe(0);
    const response = JSON.parse(stdout) as TranscriptionResponse;
    expectChaptersOf(response, english.passages);
    const { metadata, summarization, transcription } = response.prediction_raw;
    expect(metadata.chapterization_time).toBeGreaterThan(0);
    expect(metadata.summarization_time).toBeGreaterThan(0);
    expect(summarization!.type).toBe('general');
    expect(summarization!.text.split('\n\n')).toHaveLength(3);
    const said = transcription.map((s) => s.transcription).join(' ');
    for (const s of summarization!.sentences) {
      expect(said).toContain(s.text);
      const segment = transcription.find(
        (x) => s.time_begin >= x.time_begin && s.time_end <= x.time_end,
      );
      expect(segment?.transcription).toContain(s.text);
    }

    // The saved result's chapters, listed for a video description and as a WebVTT track.
    const saved = join(dir, 'english.json');
    writeFileSync(saved, stdout);
    const lines = await run('export', saved, '--to', 'chapters');
    expect(lines.code).toBe(0);
    const listed = lines.stdout.trimEnd().split('\n');
    expect(listed).toHaveLength(3);
    expect(listed[0]).toBe(`0:00 ${response.prediction_raw.chapters![0]!.headline}`);
    const track = await run('export', saved, '--to', 'chapters-vtt');
    expect(track.stdout.startsWith('WEBVTT\n\n1\n00:00:00.000 --> ')).toBe(true);
  });

  it('adds neither without the toggles, and both times stay 0', async () => {
    const { code, stdout } = await run('transcribe', english.path, ...models);
    expect(code).toBe(0);
    const response = JSON.parse(stdout) as TranscriptionResponse;
    expect(response.prediction_raw.chapters).toBeUndefined();
    expect(response.prediction_raw.summarization).toBeUndefined();
    expect(response.prediction_raw.metadata.chapterization_time).toBe(0);
    expect(response.prediction_raw.metadata.summarization_time).toBe(0);

    // A result saved without chapters is cut into them on export.
    const saved = join(dir, 'plain.json');
    writeFileSync(saved, stdout);
    const lines = await run('export', saved, '--to', 'chapters');
    expect(lines.code).toBe(0);
    expect(lines.stdout.trimEnd().split('\n')).toHaveLength(3);
  });

  it('answers the service with chapters and bullet points in another language', async () => {
    const spanish = topicRecording(dir, 'spanish', 'es', 6, { passages: 3, passageSeconds: 45 });
    const server = await startServe(['--no-auth']);
    try {
      const answer = await curl([
        ...['-F', `audio=@${spanish.path}`],
        ...['-F', 'toggle_chapterization=true'],
        ...['-F', 'toggle_summarization=true'],
        ...['-F', 'summarization_type=bullet_points'],
        `${server.url}${ENDPOINTS.audio.path}`,
      ]);
      expect(answer.status).toBe(200);
      const response = answer.json() as unknown as TranscriptionResponse;
      expectChaptersOf(response, spanish.passages);
      const summary = response.prediction_raw.summarization!;
      expect(summary.type).toBe('bullet_points');
      expect(summary.text.split('\n')).toEqual(summary.sentences.map((s) => `- ${s.text}`));

      const refused = await curl([
        ...['-F', `audio=@${spanish.path}`],
        ...['-F', 'toggle_summarization=true'],
        ...['-F', 'summarization_type=short'],
        `${server.url}${ENDPOINTS.audio.path}`,
      ]);
      expect(refused.status).toBe(422);
      const body = refused.json() as unknown as ErrorBody;
      expect(body.field_errors).toEqual([
        {
          field: 'summarization_type',
          message:
            'summarization_type must be one of general, concise, bullet_points; got "short".',
        },
      ]);
    } finally {
      await server.stop();
    }
  });
});
