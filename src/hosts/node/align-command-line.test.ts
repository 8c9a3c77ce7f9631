import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../core/contract/errors';
import { alignScript, runWithTestModel as run } from '../../../tools/testing/cli-run';
import { scratchDir, sentence, spokenFile } from '../../../tools/testing/speech';

/**
 * `murmur align MEDIA TEXT`: the words of a text the user has, timed to the media, through the
 * CLI's whole pipeline with the test model, on generated speech whose word times are known.
 */
let dir = '';

const align = (media: string, text: string, ...fields: string[]) =>
  alignScript(dir, media, text, ...fields);

beforeAll(() => {
  dir = scratchDir();
});

describe('murmur align', () => {
  it('refuses a text without words, naming the script, and a text file it cannot read', async () => {
    const text = sentence('en', 81, 4);
    const media = spokenFile(dir, 'refuse', [{ language: 'en', text }], 0.5).path;
    const empty = join(dir, 'empty.txt');
    writeFileSync(empty, ' \n\n');
    const refused = await run('align', media, empty);
    expect(refused.code).toBe(2);
    const body = JSON.parse(refused.stdout) as ErrorBody;
    expect(body.field_errors?.map((e) => e.field)).toEqual(['script']);
    expect(refused.stderr).toContain(
      'The script has no words to time: give the text that was said.',
    );

    // A word longer than anybody says is refused before anything is timed or even decoded.
    const word = join(dir, 'word.txt');
    writeFileSync(word, `${text} ${'x'.repeat(3_900_000)}`);
    const long = await run('align', media, word);
    expect(long.code).toBe(2);
    expect(long.stderr).toBe(
      'murmur: The script has a word of more than 100 characters on line 1: nobody says a word that long. Give the text that was said as plain text, SRT or VTT, in UTF-8.\n',
    );

    const missing = await run('align', media, join(dir, 'nowhere.txt'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`No readable text file at "${join(dir, 'nowhere.txt')}".`);

    const alone = await run('align', media);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toBe(
      'murmur: murmur align needs MEDIA and TEXT (the text that was said). See "murmur align --help".\n',
    );
  });

  it('refuses a script that is not text (TXT, SRT or VTT), naming the script, before any timing', async () => {
    const text = sentence('en', 82, 4);
    const media = spokenFile(dir, 'junk', [{ language: 'en', text }], 0.5).path;
    const junk = (name: string, bytes: Uint8Array) => {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      return path;
    };
    const srtHead = Buffer.from('1\n00:00:00,000 --> 00:00:01,000\n');
    const cases = [
      {
        path: junk('nul.txt', Buffer.from('hello there\nand \u0000\u0000 more words\n')),
        says: 'The script is not text: line 2 holds a NUL byte. Give the text that was said as plain text, SRT or VTT, in UTF-8.',
      },
      {
        path: junk(
          'latin1.srt',
          Buffer.concat([srtHead, Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x6f, 0x6b])]),
        ),
        says: 'The script is not text: line 3 holds bytes that are not UTF-8. Give the text that was said as plain text, SRT or VTT, in UTF-8.',
      },
      {
        path: junk(
          'bell.vtt',
          Buffer.from('WEBVTT\n\n00:00.000 --> 00:01.000\nring \u0007 ring\n'),
        ),
        says: 'The script is not text: line 4 holds the control character U+0007. Give the text that was said as plain text, SRT or VTT, in UTF-8.',
      },
    ];
    for (const { path, says } of cases) {
      const refused = await run('align', media, path);
      expect(refused.code).toBe(2);
      const body = JSON.parse(refused.stdout) as ErrorBody;
      expect(body.field_errors).toEqual([{ field: 'script', message: says }]);
      expect(refused.stderr).toBe(`murmur: ${says}\n`);
    }
    // Random bytes, as a binary file given by mistake.
    let state = 7;
    const random = Uint8Array.from(
      { length: 4096 },
      () => (state = (state * 1103515245 + 12345) >>> 0) >>> 24,
    );
    const binary = await run('align', media, junk('random.srt', random));
    expect(binary.code).toBe(2);
    expect(binary.stderr).toMatch(/^murmur: The script is not text: line \d+ holds /);
  });

  it('refuses a script far longer than the media could hold, saying the bound', async () => {
    const text = sentence('en', 83, 4);
    const media = spokenFile(dir, 'short', [{ language: 'en', text }], 0.5).path;
    const duration = (await align(media, text)).prediction_raw.metadata.provided_file_metadata
      .duration;
    // A text of 400 words to a few seconds of speech: more than 10 words a second.
    const long = join(dir, 'long.txt');
    writeFileSync(
      long,
      `${Array.from({ length: 100 }, (_, k) => sentence('en', 100 + k, 4)).join('. ')}.`,
    );
    const refused = await run('align', media, long);
    expect(refused.code).toBe(2);
    const says = `The script has 400 words, more than ${duration.toLocaleString('en-US', { maximumFractionDigits: 1 })} s of media can hold: at most 100 (10 words a second, 100 at the least).`;
    expect(refused.stderr).toBe(`murmur: ${says}\n`);
    expect((JSON.parse(refused.stdout) as ErrorBody).field_errors).toEqual([
      { field: 'script', message: says },
    ]);

    // A file larger than any script is refused by its size, before it is read.
    const huge = join(dir, 'huge.txt');
    writeFileSync(huge, Buffer.alloc(50_000_000, 'word '));
    const big = await run('align', media, huge);
    expect(big.code).toBe(2);
    expect(big.stderr).toBe(
      'murmur: The script is 50 MB, more than the 4 MB of text a script may be.\n',
    );
  });

  it('is described in its own --help as shown', async () => {
    const { code, stdout } = await run('align', '--help');
    expect(code).toBe(0);
    expect(stdout).toContain(
      [
        'Usage: murmur align MEDIA TEXT [--FIELD VALUE]... [OPTIONS]',
        '',
        'Times the words of TEXT (a script, notes, or an SRT or VTT file whose times are',
        'wrong) to MEDIA (the "audio" field, or "video" with --endpoint video), and',
        'prints the response JSON of the transcription service on stdout: the words stay',
        'exactly as written, one segment per sentence or line (per cue for subtitles),',
        "and the response has the same shape as a transcription's. A line never said gets",
        'no time and confidence 0.',
      ].join('\n'),
    );
  });
});
