import { describe, expect, it } from 'vitest';
import { cliFailure as failure } from '../../../tools/testing/cli-run';
import { sharedMedia } from '../../../tools/testing/ffmpeg-fixtures';

const jfk = sharedMedia('speech/jfk.wav');

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
