import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptionResponse } from '../../core/contract/response';
import { clockTime } from '../../core/document/transcript-document';
import { main } from './cli';
import { REPO, TEST_WHISPER_ID } from '../../../tools/testing/ffmpeg-fixtures';

const jfk = fileURLToPath(new URL('../../../../shared/media/speech/jfk.wav', import.meta.url));

const XML_ENTITIES: Record<string, string> = { apos: "'", quot: '"', lt: '<', gt: '>', amp: '&' };

async function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  return { code, stdout, stderr };
}

describe('murmur export', () => {
  let dir = '';
  let saved = '';
  let response: TranscriptionResponse;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'murmur-export-'));
    const transcribed = await run(
      'transcribe',
      jfk,
      '--models',
      `${REPO}/.models`,
      '--model',
      TEST_WHISPER_ID,
    );
    expect(transcribed.code).toBe(0);
    saved = join(dir, 'jfk.json');
    writeFileSync(saved, transcribed.stdout);
    response = JSON.parse(transcribed.stdout) as TranscriptionResponse;
    expect(response.prediction_raw.transcription.length).toBeGreaterThan(0);
  });

  const words = () =>
    response.prediction_raw.transcription.flatMap((s) => s.transcription.trim().split(/\s+/));

  it('writes Markdown on stdout with every word of the result, in order, timed per segment', async () => {
    const md = await run('export', saved, '--to', 'md', '--timestamps', 'segment');
    expect(md.code).toBe(0);
    expect(md.stdout.startsWith('# jfk\n')).toBe(true);
    const text = md.stdout.replace(/\\(.)/g, '$1');
    let at = 0;
    for (const word of words()) {
      const found = text.indexOf(word, at);
      expect(found, word).toBeGreaterThanOrEqual(at);
      at = found + word.length;
    }
    for (const segment of response.prediction_raw.transcription) {
      expect(text).toContain(`[${clockTime(segment.time_begin)}]`);
    }
  });

  it('writes one web page to a file, its title as asked', async () => {
    const out = join(dir, 'talk.html');
    const html = await run('export', saved, '--to', 'html', '-o', out, '--title', 'A speech');
    expect(html.code).toBe(0);
    expect(html.stderr).toBe(`murmur: wrote ${out}\n`);
    const page = readFileSync(out, 'utf8');
    expect(page).toContain('<title>A speech</title>');
    for (const word of words()) expect(page).toContain(word.replace(/&/g, '&amp;'));
  });

  it('writes a Word document beside the result', async () => {
    const docx = await run('export', saved, '--to', 'docx', '--timestamps', 'none');
    expect(docx.code).toBe(0);
    const file = join(dir, 'jfk.docx');
    expect(docx.stderr).toBe(`murmur: wrote ${file}\n`);
    const xml = execFileSync('unzip', ['-p', file, 'word/document.xml']).toString('utf8');
    const text = [...xml.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)]
      .map((t) => t[1]!)
      .join('')
      .replace(/&(apos|quot|lt|gt|amp);/g, (_, e: string) => XML_ENTITIES[e]!);
    expect(text.startsWith('jfk')).toBe(true);
    for (const word of words()) expect(text).toContain(word);
    expect(text).not.toMatch(/\[\d+:\d\d\]/);
  });

  it('says what is wrong with a command line or a file, and exits 2', async () => {
    const cases: [string[], string][] = [
      [
        ['export', saved],
        'murmur: export needs --to docx, html, md, chapters or chapters-vtt. See "murmur export --help".\n',
      ],
      [
        ['export', saved, '--to', 'pdf'],
        'murmur: --to takes docx, html, md, chapters or chapters-vtt; got "pdf". See "murmur export --help".\n',
      ],
      [
        ['export', saved, '--to', 'md', '--pauses', 'soon'],
        'murmur: --pauses takes a number of seconds above 0; got "soon". See "murmur export --help".\n',
      ],
      [
        ['export', join(dir, 'none.json'), '--to', 'md'],
        `murmur: No readable file at "${join(dir, 'none.json')}". See "murmur export --help".\n`,
      ],
      [
        ['export', jfk, '--to', 'md'],
        `murmur: "${jfk}" is not JSON. See "murmur export --help".\n`,
      ],
    ];
    const other = join(dir, 'other.json');
    writeFileSync(other, '{"status":"done"}');
    cases.push([
      ['export', other, '--to', 'md'],
      `murmur: "${other}" is not a transcription result: it has no prediction_raw.transcription. See "murmur export --help".\n`,
    ]);
    for (const [argv, sentence] of cases) {
      const result = await run(...argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr).toBe(sentence);
      expect(result.stdout).toBe('');
    }
    const help = await run('export', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(
      'Usage: murmur export RESULT.json --to docx|html|md|chapters|chapters-vtt',
    );
  });

  it('says where -o cannot write, exits 2 and writes nothing', async () => {
    const missing = join(dir, 'no-such-folder');
    const file = join(dir, 'a-file.txt');
    writeFileSync(file, 'not a folder');
    const locked = join(dir, 'locked');
    mkdirSync(locked, { mode: 0o500 });
    const cases: [string[], string][] = [
      [
        ['--to', 'docx', '-o', join(missing, 'talk.docx')],
        `murmur: No folder at "${missing}". See "murmur export --help".\n`,
      ],
      [
        ['--to', 'md', '-o', join(missing, 'deeper', 'talk.md')],
        `murmur: No folder at "${join(missing, 'deeper')}". See "murmur export --help".\n`,
      ],
      [
        ['--to', 'html', '--output', join(file, 'talk.html')],
        `murmur: No folder at "${file}". See "murmur export --help".\n`,
      ],
      [
        ['--to', 'md', '-o', dir],
        `murmur: "${dir}" is a folder; give the name of a file to write. See "murmur export --help".\n`,
      ],
    ];
    // Root may write anywhere: the folder without permission only tells where it is kept.
    if (process.getuid?.() !== 0) {
      cases.push([
        ['--to', 'md', '-o', join(locked, 'talk.md')],
        `murmur: No permission to write "${join(locked, 'talk.md')}". See "murmur export --help".\n`,
      ]);
    }
    for (const [argv, sentence] of cases) {
      const result = await run('export', saved, ...argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.stderr).toBe(sentence);
      expect(result.stdout).toBe('');
    }
    expect(existsSync(missing)).toBe(false);
    expect(readdirSync(locked)).toEqual([]);
  });

  it('writes nothing once interrupted, and says so', async () => {
    const output = join(dir, 'interrupted.docx');
    const interrupted = new AbortController();
    interrupted.abort();
    let stdout = '';
    let stderr = '';
    const code = await main(
      ['export', saved, '--to', 'docx', '-o', output],
      { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) },
      { signal: interrupted.signal },
    );
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('murmur: The export was cancelled; nothing was written.\n');
    expect(existsSync(output)).toBe(false);
  });
});
