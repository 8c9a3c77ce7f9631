import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../core/contract/errors';
import type { TranscriptionResponse } from '../../core/contract/response';
import { scratchDir, sentence, spokenFile } from '../../../tools/testing/speech';
import { timedSpeech } from '../../../tools/testing/timed-speech';
import { parseSubtitles } from '../../core/subtitles/parse';
import { main } from './cli';
import { REPO, TEST_WHISPER_ID } from '../../../tools/testing/ffmpeg-fixtures';

/**
 * `murmur align MEDIA TEXT`: the words of a text the user has, timed to the media, through the
 * CLI's whole pipeline with the test model, on generated speech whose word times are known.
 */
let dir = '';

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main([...argv, '--models', `${REPO}/.models`, '--model', TEST_WHISPER_ID], {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  return { code, stdout, stderr };
}

async function align(media: string, text: string, ...fields: string[]) {
  const script = join(dir, `script-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(script, text);
  const result = await run('align', media, script, ...fields);
  if (result.code !== 0) throw new Error(`murmur align exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as TranscriptionResponse;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

beforeAll(() => {
  dir = scratchDir();
});

describe('murmur align', () => {
  it('times every word of the text, kept as written and in order, within 0.1 s at the median', async () => {
    const errors: number[] = [];
    for (const [language, seed] of [
      ['en', 51],
      ['es', 52],
    ] as const) {
      const lines = [sentence(language, seed, 8), sentence(language, seed + 1, 9)];
      const text = `${lines[0]}, ${lines[1]}.`;
      const speech = timedSpeech(dir, `timed-${seed}`, language, text, seed);
      const response = await align(speech.path, `${lines[0]}, ${lines[1]}.`);
      const segments = response.prediction_raw.transcription;
      const words = segments.flatMap((s) => s.words);
      expect(words.map((w) => w.word.trim())).toEqual(text.split(' '));
      expect(segments.map((s) => s.transcription.trim())).toEqual([text]);
      for (let i = 1; i < words.length; i++) {
        expect(words[i]!.time_begin).toBeGreaterThanOrEqual(words[i - 1]!.time_begin);
      }
      words.forEach((w, i) => errors.push(Math.abs(w.time_begin - speech.words[i]!.start)));
    }
    expect(median(errors)).toBeLessThanOrEqual(0.1);
  });

  it('gives the first word of each sentence a real confidence, and ends each word where its sound ends', async () => {
    const ends: number[] = [];
    const lineEnds: number[] = [];
    for (const [language, seed] of [
      ['en', 91],
      ['es', 92],
    ] as const) {
      const capital = (t: string) => `${t[0]!.toUpperCase()}${t.slice(1)}`;
      const lines = [sentence(language, seed, 8), sentence(language, seed + 1, 9)];
      const text = `${capital(lines[0]!)}. ${capital(lines[1]!)}.`;
      const speech = timedSpeech(dir, `ends-${seed}`, language, text, seed);
      const cased = (await align(speech.path, text)).prediction_raw.transcription;
      const lower = (await align(speech.path, text.toLowerCase())).prediction_raw.transcription;
      expect(cased.map((s) => s.words[0]!.word.trim())).toEqual(
        lines.map((l) => capital(l.split(' ')[0]!)),
      );
      // Case is not heard: a capital does not make a word less likely than in lower case.
      cased.forEach((segment, k) => {
        expect(segment.words[0]!.confidence).toBeGreaterThan(0.1);
        expect(segment.words[0]!.confidence).toBeCloseTo(lower[k]!.words[0]!.confidence, 1);
      });
      const words = cased.flatMap((s) => s.words);
      words.forEach((w, i) => ends.push(Math.abs(w.time_end - speech.words[i]!.end)));
      let at = 0;
      for (const segment of cased) {
        at += segment.words.length;
        // The pause after a sentence is not the sentence's.
        lineEnds.push(segment.time_end - speech.words[at - 1]!.end);
      }
    }
    expect(median(ends)).toBeLessThanOrEqual(0.05);
    for (const late of lineEnds) expect(late).toBeLessThanOrEqual(0.1);
  });

  it('keeps the cues of a subtitle file as segments, and marks a line never said', async () => {
    const said = [sentence('en', 61, 7), sentence('en', 62, 8)];
    const media = spokenFile(
      dir,
      'lines',
      said.map((text) => ({ language: 'en' as const, text })),
      1,
    ).path;
    const never = 'this line was written but nobody ever said it';
    const srt = [
      `1\n00:00:00,000 --> 00:00:01,000\n${said[0]}\n`,
      `2\n00:00:01,000 --> 00:00:02,000\n${never}\n`,
      `3\n00:01:00,000 --> 00:01:05,000\n${said[1]}\n`,
    ].join('\n');
    const response = await align(media, srt);
    const segments = response.prediction_raw.transcription;
    expect(segments.map((s) => s.transcription.trim())).toEqual([said[0], never, said[1]]);
    expect(segments.map((s) => s.not_said)).toEqual([undefined, true, undefined]);
    const confidence = (k: number) =>
      segments[k]!.words.reduce((sum, w) => sum + w.confidence, 0) / segments[k]!.words.length;
    expect(confidence(1)).toBeLessThan(Math.min(confidence(0), confidence(2)));
    // The times found, not the file's: the last cue starts within the media.
    const duration = response.prediction_raw.metadata.provided_file_metadata.duration;
    expect(segments[2]!.time_begin).toBeGreaterThan(segments[0]!.time_end);
    expect(segments[2]!.time_end).toBeLessThanOrEqual(duration + 0.01);
  });

  it('writes no cue for a line never said, and no cue that ends where it starts', async () => {
    const said = [sentence('en', 63, 6), sentence('en', 64, 7)];
    const media = spokenFile(
      dir,
      'unsaid',
      said.map((text) => ({ language: 'en' as const, text })),
      1,
    ).path;
    const never = 'nobody ever said this line of the script';
    const text = `${said[0]}.\n${never}.\n${said[1]}.\n`;
    const srt = (await align(media, text, '--output_format', 'srt')).prediction;
    const cues = parseSubtitles(srt);
    expect(cues.map((c) => c.lines.join(' ').trim())).toEqual([`${said[0]}.`, `${said[1]}.`]);
    for (const cue of cues) expect(cue.end).toBeGreaterThan(cue.begin);
    const checked = join(dir, 'aligned.srt');
    writeFileSync(checked, srt);
    const check = await run('check', checked);
    expect(check.stdout).not.toMatch(/on screen for 0 seconds/);

    const vtt = (await align(media, text, '--output_format', 'vtt')).prediction;
    expect(vtt).toContain(`\n\nNOTE Not said: ${never}.\n\n2\n`);
    const txt = (await align(media, text, '--output_format', 'txt')).prediction;
    expect(txt).toBe(`${said[0]}.\n${said[1]}.\n`);

    // Readable subtitles: the line is no cue; in VTT it is a NOTE between the two said lines.
    const script = join(dir, 'unsaid.txt');
    writeFileSync(script, text);
    const readable = await run('align', media, script, '--subtitles', 'vtt');
    expect(readable.code).toBe(0);
    const notes = readable.stdout.split('\n\n').map((block) => block.startsWith('NOTE'));
    expect(readable.stdout).toContain(`\n\nNOTE Not said: ${never}.\n\n`);
    expect(notes.indexOf(true)).toBeGreaterThan(1);
    expect(notes.indexOf(true)).toBeLessThan(notes.length - 1);
    expect(
      parseSubtitles(readable.stdout)
        .flatMap((c) => c.lines)
        .join(' '),
    ).not.toContain('nobody');
  });

  it('exports a line never said marked in every document, with no time of its own', async () => {
    const said = [sentence('en', 65, 6), sentence('en', 66, 7)];
    const media = spokenFile(
      dir,
      'unsaid-export',
      said.map((text) => ({ language: 'en' as const, text })),
      1,
    ).path;
    const never = 'nobody read this line of the script aloud';
    const response = await align(media, `${said[0]}.\n${never}.\n${said[1]}.\n`);
    expect(response.prediction_raw.transcription.map((s) => s.not_said)).toEqual([
      undefined,
      true,
      undefined,
    ]);
    const saved = join(dir, 'unsaid-export.json');
    writeFileSync(saved, JSON.stringify(response));
    const exported = async (...argv: string[]) => {
      let stdout = '';
      const code = await main(['export', saved, ...argv], {
        stdout: (t) => (stdout += t),
        stderr: () => {},
      });
      expect(code).toBe(0);
      return stdout;
    };

    // Timed at every segment: the two said lines carry a time, the unsaid one its label alone.
    const md = await exported('--to', 'md', '--timestamps', 'segment', '--pauses', 'off');
    const paragraphs = md.trimEnd().split('\n\n').slice(1);
    expect(paragraphs).toHaveLength(3);
    expect(paragraphs[0]).toMatch(new RegExp(`^\\[\\d+:\\d\\d\\] ${said[0]}\\.$`));
    expect(paragraphs[1]).toBe(`*(Not said: ${never}.)*`);
    expect(paragraphs[2]).toMatch(new RegExp(`^\\[\\d+:\\d\\d\\] ${said[1]}\\.$`));

    const html = await exported('--to', 'html', '--timestamps', 'segment');
    expect(html).toContain(`<span class="not-said">(Not said: ${never}.)</span>`);
    expect(html.match(/<time /g)).toHaveLength(2);

    const docx = join(dir, 'unsaid-export.docx');
    await exported('--to', 'docx', '-o', docx);
    const xml = execFileSync('unzip', ['-p', docx, 'word/document.xml']).toString('utf8');
    const run = [...xml.matchAll(/<w:r>([\s\S]*?)<\/w:r>/g)].find((r) => r[1]!.includes(never));
    expect(run?.[1]).toContain(`(Not said: ${never}.)`);
    expect(run?.[1]).toMatch(/<w:i\/>|<w:i w:val="true"\/>/);
  });

  it('answers in the format asked for', async () => {
    const text = sentence('en', 71, 6);
    const media = spokenFile(dir, 'format', [{ language: 'en', text }], 0.5).path;
    const response = await align(media, text, '--output_format', 'vtt');
    expect(typeof response.prediction).toBe('string');
    expect(response.prediction as unknown as string).toMatch(/^WEBVTT\n\n1\n00:00:0\d\.\d{3} --> /);
    expect(response.prediction as unknown as string).toContain(text);
  });

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
