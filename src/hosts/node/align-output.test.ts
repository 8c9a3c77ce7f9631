import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseSubtitles } from '../../core/subtitles/parse';
import { alignScript, runWithTestModel as run } from '../../../tools/testing/cli-run';
import { scratchDir, sentence, spokenFile } from '../../../tools/testing/speech';
import { main } from './cli';

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
});
