import { describe, expect, it } from 'vitest';
import { runCli } from '../../../tools/testing/cli-run';

/**
 * A slip in an option's name is a mistake of the command line: one sentence on stderr naming
 * the nearest option the command has (its own, or a request field), nothing on stdout, exit 2,
 * and nothing run. An option that takes no value is found as one whatever follows it.
 */
describe('an unknown option', () => {
  const cases: [string[], string][] = [
    [
      ['transcribe', 'talk.wav', '--toggle_diarisation', 'true'],
      'Unknown option --toggle_diarisation. Did you mean --toggle_diarization? See "murmur transcribe --help".',
    ],
    [
      ['transcribe', 'talk.wav', '--subtitle', 'srt'],
      'Unknown option --subtitle. Did you mean --subtitles? See "murmur transcribe --help".',
    ],
    [
      ['align', 'talk.wav', 'script.txt', '--modle', 'x'],
      'Unknown option --modle. Did you mean --model? See "murmur align --help".',
    ],
    [
      ['transcribe', 'talk.wav', '--progres'],
      'Unknown option --progres. Did you mean --progress? See "murmur transcribe --help".',
    ],
    [
      ['transcribe', 'talk.wav', '--languge=french'],
      'Unknown option --languge. Did you mean --language? See "murmur transcribe --help".',
    ],
    [
      ['transcribe', 'talk.wav', '--colour', 'red'],
      'Unknown option --colour. See "murmur transcribe --help".',
    ],
    [
      ['serve', '--concurency', '2'],
      'Unknown option --concurency. Did you mean --concurrency? See "murmur serve --help".',
    ],
    [
      ['worker', '--redsi', 'redis://x'],
      'Unknown option --redsi. Did you mean --redis? See "murmur worker --help".',
    ],
    [
      ['export', 'result.json', '--too'],
      'Unknown option --too. Did you mean --to? See "murmur export --help".',
    ],
    [
      ['check', 'talk.srt', '--profil', 'netflix'],
      'Unknown option --profil. Did you mean --profile? See "murmur check --help".',
    ],
    [
      ['voices', 'list', '--voice', 'v.json'],
      'Unknown option --voice. Did you mean --voices? See "murmur voices list --help".',
    ],
  ];

  it.each(cases)('murmur %j', async (argv, sentence) => {
    expect(await runCli(...argv)).toEqual({ code: 2, stdout: '', stderr: `murmur: ${sentence}\n` });
  });
});
