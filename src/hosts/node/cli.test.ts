import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseSync } from 'subtitle';
import { describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../core/contract/errors';
import type { TranscriptionResponse } from '../../core/contract/response';
import type { WebhookPayload } from '../../core/webhook/payload';
import { main } from './cli';
import { REPO, TEST_WHISPER_ID } from '../../../tools/testing/ffmpeg-fixtures';
import { deadUrl, startReceiver } from '../../../tools/testing/server/receiver';
import { verifyWebhook } from './webhook-signature';

const jfk = fileURLToPath(new URL('../../../../shared/media/speech/jfk.wav', import.meta.url));

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  return { code, stdout, stderr };
}

async function failure(...argv: string[]) {
  const result = await run(...argv);
  const body = JSON.parse(result.stdout) as ErrorBody;
  return { ...result, body };
}

describe('murmur transcribe: request problems exit 2 with the error body', () => {
  const cases: [string, string[], string[]][] = [
    ['neither file nor URL', [], ['audio']],
    [
      'video field on the audio endpoint',
      ['--video_url', 'https://x.example.com/a.mp4'],
      ['video_url', 'audio'],
    ],
    [
      'audio field on the video endpoint',
      ['--endpoint', 'video', '--audio_url', 'https://x.example.com/a.mp3'],
      ['audio_url', 'video'],
    ],
    ['a URL that is not http(s)', ['--audio_url', 'ftp://x.example.com/a.mp3'], ['audio_url']],
    [
      'a boolean that is not true/false',
      [jfk, '--toggle_diarization', 'yes'],
      ['toggle_diarization'],
    ],
    [
      'an unknown language_behaviour',
      [jfk, '--language_behaviour', 'auto'],
      ['language_behaviour'],
    ],
    ['an unknown output_format', [jfk, '--output_format', 'docx'], ['output_format']],
    ['manual without a language', [jfk, '--language_behaviour', 'manual'], ['language']],
    [
      'an unknown language',
      [jfk, '--language_behaviour', 'manual', '--language', 'klingon'],
      ['language'],
    ],
    [
      'translation without a target',
      [jfk, '--toggle_direct_translate', 'true'],
      ['target_translation_language'],
    ],
    [
      'an unknown target',
      [jfk, '--toggle_direct_translate', 'true', '--target_translation_language', 'elvish'],
      ['target_translation_language'],
    ],
    [
      'a speaker count that is not a positive integer',
      [jfk, '--toggle_diarization', 'true', '--diarization_num_speakers', '0'],
      ['diarization_num_speakers'],
    ],
    [
      'min greater than max',
      [
        jfk,
        '--toggle_diarization',
        'true',
        '--diarization_min_speakers',
        '3',
        '--diarization_max_speakers',
        '2',
      ],
      ['diarization_min_speakers'],
    ],
    [
      'num outside [min, max]',
      [
        jfk,
        '--toggle_diarization',
        'true',
        '--diarization_num_speakers',
        '5',
        '--diarization_max_speakers',
        '2',
      ],
      ['diarization_num_speakers'],
    ],
    [
      'a webhook that is not http(s)',
      [jfk, '--webhook_url', 'javascript:alert(1)'],
      ['webhook_url'],
    ],
    ['an unknown field', [jfk, '--languag', 'english'], ['languag']],
    ['a missing file', ['/nonexistent/talk.wav'], ['audio']],
  ];

  it.each(cases)('%s', async (_name, argv, fields) => {
    const { code, body, stderr } = await failure('transcribe', ...argv);
    expect(body.error).toBe('invalid_request');
    expect(code).toBe(2);
    expect(body.statusCode).toBeGreaterThanOrEqual(400);
    expect(body.statusCode).toBeLessThan(500);
    expect(body.request_id).toMatch(/^M-[0-9a-f]{8}$/);
    expect(body.path).toMatch(/-transcription\/$/);
    expect(body.field_errors.map((p) => p.field).sort()).toEqual([...fields].sort());
    expect(stderr).toMatch(/^murmur: /);
  });
});

describe('murmur transcribe: error sentences name the flags to change', () => {
  const models = `${REPO}/.models`;

  it('a model the host lacks names --model and --models, not a panel of the page', async () => {
    const { code, stderr } = await run(
      'transcribe',
      jfk,
      '--models',
      models,
      '--model',
      'murmur-test/no-such-model',
    );
    expect(code).toBe(1);
    expect(stderr).toContain('The recognition model "murmur-test/no-such-model" could not be');
    expect(stderr).toContain(
      'Check the model (--model ID) and the model host (--models DIR|URL).\n',
    );
    expect(stderr).not.toContain('under Models');
  });

  it('translation without its model names --translation-model and --toggle_direct_translate', async () => {
    const { stderr, body } = await failure(
      'transcribe',
      jfk,
      '--models',
      models,
      '--model',
      TEST_WHISPER_ID,
      '--translation-model',
      'murmur-test/no-such-translator',
      '--toggle_direct_translate',
      'true',
      '--target_translation_language',
      'english',
    );
    expect(body.statusCode).toBe(503);
    expect(stderr).toContain('The translation model "murmur-test/no-such-translator"');
    expect(stderr).toContain(
      'Check the model (--translation-model ID) and the model host (--models DIR|URL). Or transcribe without --toggle_direct_translate true.\n',
    );
  });

  it('a field written with dashes points to the field with underscores', async () => {
    const { stderr, body } = await failure('transcribe', jfk, '--output-format', 'srt');
    expect(stderr).toBe(
      'murmur: --output-format is not a field of this service. Did you mean --output_format?\n',
    );
    expect(body.validation_errors).toEqual([
      'output-format: output-format is not a field of this service. Did you mean output_format?',
    ]);
  });

  it('a missing file is said once, with its path', async () => {
    const { stderr, body } = await failure('transcribe', '/nonexistent/talk.wav');
    expect(stderr).toBe('murmur: No readable file at "/nonexistent/talk.wav".\n');
    expect(body.validation_errors).toEqual(['audio: No readable file at "/nonexistent/talk.wav".']);
  });

  it('a file that cannot be read is said as a missing one is, exit 2', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'murmur-cli-'));
    try {
      // The folder may be looked into by anyone: only the file is closed.
      chmodSync(folder, 0o755);
      const locked = join(folder, 'locked.wav');
      copyFileSync(jfk, locked);
      chmodSync(locked, 0o000);
      // A privileged process reads whatever the permission bits say: the CLI then runs as nobody.
      const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
      const bin = fileURLToPath(new URL('./murmur.mjs', import.meta.url));
      const error = await promisify(execFile)(
        process.execPath,
        [bin, 'transcribe', locked],
        asNobody,
      ).catch((e: { code: number; stdout: string; stderr: string }) => e);
      expect('code' in error && error.code).toBe(2);
      expect(error.stderr).toBe(`murmur: No readable file at "${locked}".\n`);
      const body = JSON.parse(error.stdout) as ErrorBody;
      expect([body.statusCode, body.error]).toEqual([422, 'invalid_request']);
      expect(body.validation_errors).toEqual([`audio: No readable file at "${locked}".`]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('a folder given as the file is said as a missing file is', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'murmur-cli-'));
    try {
      const { code, stderr, body } = await failure('transcribe', folder);
      expect(code).toBe(2);
      expect(stderr).toBe(`murmur: No readable file at "${folder}".\n`);
      expect(body.statusCode).toBe(422);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('an unreachable model host is said so, not "fetch failed"', async () => {
    const { stderr, body } = await failure(
      'transcribe',
      jfk,
      '--models',
      `${new URL(await deadUrl()).origin}/hub/`,
      '--model',
      TEST_WHISPER_ID,
    );
    expect(body.error).toBe('engine_unavailable');
    expect(stderr).toContain('the host could not be reached');
    expect(stderr).not.toContain('fetch failed');
    expect(stderr).toContain('(--models DIR|URL)');
  });

  it('an unreachable media link says why', async () => {
    const url = `${new URL(await deadUrl()).origin}/talk.mp3`;
    const { stderr } = await failure('transcribe', '--audio_url', url);
    expect(stderr).toBe(
      `murmur: ${url} could not be fetched: the server refused the connection.\n`,
    );
  });
});

describe('murmur', () => {
  it('lists every field with its meaning and default in transcribe --help', async () => {
    const { code, stdout } = await run('transcribe', '--help');
    expect(code).toBe(0);
    for (const field of [
      'audio_url',
      'video_url',
      'language_behaviour',
      'language',
      'toggle_noise_reduction',
      'transcription_hint',
      'toggle_diarization',
      'toggle_direct_translate',
      'target_translation_language',
      'webhook_url',
      'diarization_num_speakers',
      'diarization_min_speakers',
      'diarization_max_speakers',
      'output_format',
    ]) {
      expect(stdout).toMatch(new RegExp(`^  --${field}\\b`, 'm'));
    }
    expect(stdout).toContain('Default: automatic single language.');
    expect(stdout).toContain('Default: json.');
  });

  it('rejects a bad command line with exit 2', async () => {
    expect((await run('transcribe', '--endpoint', 'image')).code).toBe(2);
    expect((await run('translate')).code).toBe(2);
  });

  it('runs as the package bin and prints the error body for a bad request', async () => {
    const bin = fileURLToPath(new URL('./murmur.mjs', import.meta.url));
    const error = await promisify(execFile)(process.execPath, [
      bin,
      'transcribe',
      '--output_format',
      'x',
    ]).catch((e: { code: number; stdout: string }) => e);
    expect('code' in error && error.code).toBe(2);
    const body = JSON.parse(error.stdout) as ErrorBody;
    expect(body.error).toBe('invalid_request');
  });
});

describe('murmur transcribe with webhook_url', () => {
  const models = ['--models', `${REPO}/.models`, '--model', TEST_WHISPER_ID];

  it('prints the response, POSTs the same to the webhook and tells so on stderr', async () => {
    const receiver = await startReceiver();
    try {
      const { code, stdout, stderr } = await run(
        'transcribe',
        jfk,
        ...models,
        '--output_format',
        'srt',
        '--webhook_url',
        receiver.url,
      );
      expect(code).toBe(0);
      const response = JSON.parse(stdout) as TranscriptionResponse;
      const [hook] = await receiver.waitFor(1);
      const delivered = JSON.parse(hook!.body) as WebhookPayload;
      expect(delivered.request_id).toMatch(/^M-[0-9a-f]{8}$/);
      expect(delivered.payload).toEqual(response);
      expect(stderr).toMatch(/murmur: webhook: delivered \(200\) on try 1/);
    } finally {
      await receiver.close();
    }
  });

  it('signs the delivery with MURMUR_WEBHOOK_SECRET, as the service does', async () => {
    const secret = `whsec_${Buffer.from('a secret of sixteen bytes+').toString('base64')}`;
    const receiver = await startReceiver();
    process.env.MURMUR_WEBHOOK_SECRET = secret;
    try {
      const { code } = await run('transcribe', jfk, ...models, '--webhook_url', receiver.url);
      expect(code).toBe(0);
      const [hook] = await receiver.waitFor(1);
      expect(verifyWebhook(secret, hook!.headers, hook!.body)).toBe(true);
      expect(verifyWebhook(secret, hook!.headers, hook!.body.replace('M-', 'N-'))).toBe(false);

      process.env.MURMUR_WEBHOOK_SECRET = 'not-a-secret';
      const refused = await run('transcribe', jfk, ...models, '--webhook_url', receiver.url);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(
        'murmur: MURMUR_WEBHOOK_SECRET: The webhook secret must start with whsec_ followed by base64.\n',
      );
    } finally {
      delete process.env.MURMUR_WEBHOOK_SECRET;
      await receiver.close();
    }
  });

  it('still succeeds when the webhook cannot be reached, and says so on stderr', async () => {
    const { code, stdout, stderr } = await run(
      'transcribe',
      jfk,
      ...models,
      '--webhook_url',
      await deadUrl(),
    );
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as TranscriptionResponse).prediction_raw).toBeDefined();
    expect(stderr).toMatch(/webhook: try 1 failed: .*could not be reached/);
    expect(stderr).toMatch(/webhook: not delivered after 3 tries/);
  });

  it("does not follow the receiver's redirect: the result goes nowhere else", async () => {
    const elsewhere = await startReceiver();
    const redirecting = await startReceiver({ redirectTo: elsewhere.url });
    try {
      const { code, stderr } = await run(
        'transcribe',
        jfk,
        ...models,
        '--webhook_url',
        redirecting.url,
      );
      expect(code).toBe(0);
      expect(redirecting.received).toHaveLength(1);
      expect(elsewhere.received).toEqual([]);
      expect(stderr).toContain(
        'murmur: webhook: not delivered after 1 try: The receiver answered 307 Temporary Redirect (a refusal: not tried again).\n',
      );
    } finally {
      await Promise.all([redirecting.close(), elsewhere.close()]);
    }
  });
});

describe('murmur transcribe --subtitles', () => {
  it('refuses bad subtitle options with exit 2', async () => {
    for (const argv of [
      ['--subtitles', 'ass'],
      ['--line-chars', 'wide'],
      ['--lines', '0'],
      ['--speaker-names', 'yes'],
    ]) {
      const { code, stderr } = await run('transcribe', jfk, ...argv);
      expect(code).toBe(2);
      expect(stderr).toContain(argv[0]);
    }
  });

  it('prints readable subtitles within the limits given, read by an independent parser', async () => {
    const models = fileURLToPath(new URL('../../../.models', import.meta.url));
    const { code, stdout } = await run(
      'transcribe',
      jfk,
      '--models',
      models,
      '--model',
      'murmur-test/whisper-synth',
      '--subtitles',
      'srt',
      '--line-chars',
      '24',
      '--max-seconds',
      '4',
    );
    expect(code).toBe(0);
    const cues = parseSync(stdout).flatMap((n) => (n.type === 'cue' ? [n.data] : []));
    expect(cues.length).toBeGreaterThan(1);
    for (const cue of cues) {
      const lines = cue.text.split('\n');
      expect(lines.length).toBeLessThanOrEqual(2);
      for (const line of lines) expect(line.length <= 24 || !line.includes(' ')).toBe(true);
      expect(cue.end - cue.start).toBeLessThanOrEqual(4000);
    }
  }, 120_000);
});
