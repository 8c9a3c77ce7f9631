import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { voicesFileText } from '../../core/voices/voice-file';
import { scratchDir } from '../../../tools/testing/speech';
import { writeWav } from '../../../tools/testing/wav';
import { murmur, namedResult, TEST_MODEL_ARGS } from '../../../tools/testing/voices-cli';

/** What the voices options refuse, and the sentences that say so, before any model runs. */
let dir = '';
let media = '';
let good = '';
const files: Record<string, string> = {};

beforeAll(() => {
  dir = scratchDir();
  media = writeWav(join(dir, 'tone.wav'), [new Float32Array(16000)]);
  good = join(dir, 'voices.json');
  writeFileSync(
    good,
    voicesFileText([
      {
        name: 'Anna',
        model: 'murmur-test/embedding-synth',
        embedding: [0.6, 0.8],
        seconds: 12,
        recordings: 1,
        created: '2026-01-02T03:04:05.000Z',
        updated: '2026-01-02T03:04:05.000Z',
      },
    ]),
  );
  const write = (name: string, text: string) => {
    files[name] = join(dir, name);
    writeFileSync(files[name], text);
  };
  write('notes.json', 'Anna sounds low.\n');
  write('future.json', JSON.stringify({ format: 'murmur-voices', version: 7, voices: [] }));
  write(
    'result.json',
    namedResult([
      { speaker: 'speaker_0', start: 0, end: 0.5 },
      { speaker: 'speaker_1', start: 0.5, end: 1 },
    ]),
  );
  write(
    'plain.json',
    JSON.stringify({ prediction_raw: { transcription: [], speaker_mapping: [] } }),
  );
});

describe('murmur transcribe --voices', () => {
  it('refuses a file that is not a voices file, naming it, with exit 2 and the error body', async () => {
    const run = await murmur(
      'transcribe',
      media,
      '--toggle_diarization',
      'true',
      '--voices',
      files['notes.json']!,
    );
    const sentence = `"${files['notes.json']}" is not a voices file: it is not JSON.`;
    expect(run.stderr).toBe(`murmur: ${sentence}\n`);
    expect(run.code).toBe(2);
    const body = JSON.parse(run.stdout) as { message: string; problems?: unknown };
    expect(body.message).toBe(sentence);
  });

  it('refuses a voices file of a newer version than it reads', async () => {
    const run = await murmur(
      'transcribe',
      media,
      '--toggle_diarization',
      'true',
      '--voices',
      files['future.json']!,
    );
    expect(run.stderr).toBe(
      `murmur: "${files['future.json']}" is a voices file of version 7, newer than this Murmur reads (version 1): update Murmur.\n`,
    );
    expect(run.code).toBe(2);
  });

  it('refuses a voices file that is not there', async () => {
    const missing = join(dir, 'nobody.json');
    const run = await murmur(
      'transcribe',
      media,
      '--toggle_diarization',
      'true',
      '--voices',
      missing,
    );
    expect(run.stderr).toBe(`murmur: No voices file at "${missing}".\n`);
    expect(run.code).toBe(2);
  });

  it('refuses --voices without diarization, naming the option', async () => {
    const run = await murmur('transcribe', media, '--voices', good);
    expect(run.stderr).toBe(
      'murmur: --voices needs --toggle_diarization true: voices name the speakers that diarization finds.\n',
    );
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stdout)).toMatchObject({
      statusCode: 422,
      error: 'invalid_request',
      message:
        'voices needs --toggle_diarization true: voices name the speakers that diarization finds.',
    });
  });
});

describe('murmur voices add', () => {
  const add = (result: string, ...more: string[]) =>
    murmur(
      'voices',
      'add',
      media,
      result,
      '--speaker',
      'speaker_2',
      '--name',
      'Anna',
      '--voices',
      good,
      ...TEST_MODEL_ARGS,
      ...more,
    );

  it('refuses a speaker the result does not have, naming the speakers it has', async () => {
    const run = await add(files['result.json']!);
    expect(run.stderr).toBe(
      `murmur: "${files['result.json']}" has no speaker "speaker_2"; its speakers are "speaker_0", "speaker_1". See "murmur voices add --help".\n`,
    );
    expect(run.code).toBe(2);
  });

  it('refuses a result made without diarization', async () => {
    const run = await add(files['plain.json']!);
    expect(run.stderr).toBe(
      `murmur: "${files['plain.json']}" names no speakers: it was made without telling speakers apart (--toggle_diarization true). See "murmur voices add --help".\n`,
    );
    expect(run.code).toBe(2);
  });

  it('refuses a voices file it cannot read rather than writing over it', async () => {
    const run = await murmur(
      'voices',
      'add',
      media,
      files['result.json']!,
      '--speaker',
      'speaker_0',
      '--name',
      'Anna',
      '--voices',
      files['future.json']!,
    );
    expect(run.stderr).toMatch(/^murmur: ".*future\.json" is a voices file of version 7, newer/);
    expect(run.code).toBe(2);
  });

  it('refuses a voices file in a folder that is not there, before any run', async () => {
    const run = await murmur(
      'voices',
      'add',
      media,
      files['result.json']!,
      '--speaker',
      'speaker_0',
      '--name',
      'Anna',
      '--voices',
      join(dir, 'no-such-folder', 'voices.json'),
    );
    expect(run.stderr).toBe(
      `murmur: No folder at "${join(dir, 'no-such-folder')}". See "murmur voices add --help".\n`,
    );
    expect(run.code).toBe(2);
  });

  it('says what is missing from its command line', async () => {
    expect(
      (
        await murmur(
          'voices',
          'add',
          media,
          files['result.json']!,
          '--name',
          'Anna',
          '--voices',
          good,
        )
      ).stderr,
    ).toBe(
      'murmur: Give the speaker to remember: --speaker LABEL. See "murmur voices add --help".\n',
    );
    expect((await murmur('voices', 'list')).stderr).toBe(
      'murmur: Give the voices file: --voices FILE.json. See "murmur voices list --help".\n',
    );
    const named = (name: string) =>
      murmur(
        'voices',
        'add',
        media,
        files['result.json']!,
        '--speaker',
        'speaker_0',
        '--name',
        name,
        '--voices',
        good,
      );
    expect((await named('A'.repeat(101))).stderr).toBe(
      'murmur: --name is longer than 100 characters: give the person\'s name. See "murmur voices add --help".\n',
    );
    expect((await named('\u001b\n')).stderr).toBe(
      'murmur: Give the person\'s name: --name NAME. See "murmur voices add --help".\n',
    );
    const unknown = await murmur('voices', 'forget', 'Anna');
    expect(unknown.stderr).toBe(
      'murmur: Unknown command "voices forget"; voices takes add, list or remove. See "murmur voices --help".\n',
    );
    expect(unknown.code).toBe(2);
  });
});

describe('murmur serve --voices and murmur worker --voices', () => {
  it('refuse to start on a file that is not a voices file, naming it', async () => {
    const serve = await murmur(
      'serve',
      '--no-auth',
      '--port',
      '0',
      '--voices',
      files['notes.json']!,
    );
    expect(serve).toEqual({
      code: 2,
      stdout: '',
      stderr: `murmur serve: "${files['notes.json']}" is not a voices file: it is not JSON.\n`,
    });
    const worker = await murmur(
      'worker',
      '--redis',
      'redis://127.0.0.1:1',
      '--store',
      join(dir, 'store'),
      '--voices',
      files['future.json']!,
    );
    expect(worker.code).toBe(2);
    expect(worker.stderr).toBe(
      `murmur worker: "${files['future.json']}" is a voices file of version 7, newer than this Murmur reads (version 1): update Murmur.\n`,
    );
  });
});
