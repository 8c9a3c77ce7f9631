import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readableCues } from '../../core/format/readable-cues';
import { renderReadableSrt } from '../../core/format/readable-subtitles';
import { BBC } from '../../core/subtitles/profiles';
import { main } from './cli';

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  return { code, stdout, stderr };
}

const CLEAN = [
  '1',
  '00:00:01,000 --> 00:00:03,000',
  'A clean line of text.',
  '',
  '2',
  '00:00:04,000 --> 00:00:06,000',
  'Another clean line,',
  'on two lines.',
  '',
].join('\n');

/** Cue 2 reads 40 characters in 1.5 s: too fast for every profile. */
const FAST = [
  '1',
  '00:00:01,000 --> 00:00:03,000',
  'A clean line of text.',
  '',
  '2',
  '00:00:04,000 --> 00:00:05,500',
  'This is far too much text for',
  'the time.',
  '',
  '3',
  '00:00:07,000 --> 00:00:09,000',
  'A clean line of text.',
  '',
].join('\n');

describe('murmur check', () => {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'murmur-check-'));
  });
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('exits 0 and says so when every cue keeps the profile', async () => {
    const result = await run('check', file('clean.srt', CLEAN));
    expect(result).toEqual({
      code: 0,
      stdout: 'No findings in 2 cues against netflix-en.\n',
      stderr: '',
    });
  });

  it('prints each finding on a line of its own and exits 1', async () => {
    const path = file('fast.vtt', `WEBVTT\n\n${FAST.replace(/,(\d{3})/g, '.$1')}`);
    expect(await run('check', path)).toEqual({
      code: 1,
      stdout:
        '00:00:04,000  reading-speed  Cue 2 (00:00:04,000) reads at 26.0 characters a second; the profile allows 20.\n' +
        '1 finding in 1 of 3 cues against netflix-en.\n',
      stderr: '',
    });
    const bbc = await run('check', path, '--profile', 'bbc');
    expect(bbc.code).toBe(1);
    expect(bbc.stdout).toBe(
      '00:00:04,000  reading-speed  Cue 2 (00:00:04,000) reads at 26.0 characters a second; the profile allows 17.\n' +
        '1 finding in 1 of 3 cues against bbc.\n',
    );
    const vertical = await run('check', path, '--profile=vertical');
    expect(vertical.stdout.split('\n').filter((l) => l !== '')).toEqual([
      '00:00:04,000  line-too-long  Cue 2 (00:00:04,000) has a line of 29 characters; the profile allows 26.',
      '00:00:04,000  reading-speed  Cue 2 (00:00:04,000) reads at 26.0 characters a second; the profile allows 17.',
      '2 findings in 1 of 3 cues against vertical.',
    ]);
  });

  it("finds nothing in Murmur's own readable subtitles for a profile", async () => {
    const words = 'We left the harbour early, before the wind came up and the boats turned back.'
      .split(' ')
      .map((w, i) => ({
        word: ` ${w}`,
        time_begin: i * 0.6,
        time_end: i * 0.6 + 0.5,
        confidence: 1,
      }));
    const cues = readableCues(
      [
        {
          words,
          transcription: words.map((w) => w.word).join(''),
          language: 'en',
          time_begin: 0,
          time_end: 9,
          speaker: 'speaker_0',
          channel: 'channel_0',
        },
      ],
      BBC,
    );
    const result = await run('check', file('own.srt', renderReadableSrt(cues)), '--profile', 'bbc');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`No findings in ${cues.length} cues against bbc.\n`);
  });

  it('exits 2 for a usage problem, naming the valid profiles', async () => {
    const path = file('clean2.srt', CLEAN);
    expect(await run('check', path, '--profile', 'cinema')).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'murmur: Unknown profile "cinema"; the profiles are netflix-en, bbc and vertical. See "murmur check --help".\n',
    });
    const missing = join(dir, 'none.srt');
    expect((await run('check', missing)).stderr).toBe(
      `murmur: No readable file at "${missing}". See "murmur check --help".\n`,
    );
    expect((await run('check', missing)).code).toBe(2);
    expect(await run('check')).toMatchObject({
      code: 2,
      stderr: 'murmur: check needs an SRT or VTT file. See "murmur check --help".\n',
    });
    const notes = file('notes.txt', 'Just some notes.\n');
    expect(await run('check', notes)).toMatchObject({
      code: 2,
      stderr: `murmur: "${notes}" holds no SRT or VTT cues. See "murmur check --help".\n`,
    });
    const help = await run('check', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: murmur check FILE.srt|FILE.vtt');
    expect((await run('--help')).stdout).toContain(
      "  check FILE.srt|.vtt      Check subtitles against a profile's limits.\n",
    );
  });
});
