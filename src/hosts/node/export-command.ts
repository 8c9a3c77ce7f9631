import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { TranscriptionResponse } from '../../core/contract/response';
import { renderDocx } from '../../core/document/docx';
import { renderHtml } from '../../core/document/html';
import { renderMarkdown } from '../../core/document/markdown';
import {
  DEFAULT_DOCUMENT_OPTIONS,
  transcriptDocument,
  type DocumentOptions,
  type TimestampRule,
} from '../../core/document/transcript-document';
import { renderChapterLines, renderVttChapters } from '../../core/format/chapter-lines';
import { findChapters } from '../../core/understanding/chapters';
import { loadStopWords } from '../../engine/stages/understanding';
import { CliUsageError, unknownOption } from './cli-args';
import { optionTable, paragraph, usage } from './help-layout';
import { outputPathProblem, writeOutputFile } from './output-file';
import type { CliIo } from './cli';

export type DocumentFormat = 'docx' | 'html' | 'md';
/** Chapter lists: `0:00 Headline` lines (chapters) or a WebVTT chapters track (chapters-vtt). */
export type ChapterFormat = 'chapters' | 'chapters-vtt';
const FORMATS = ['docx', 'html', 'md', 'chapters', 'chapters-vtt'] as const;

export interface ExportArgs {
  result: string;
  to: DocumentFormat | ChapterFormat;
  output: string | null;
  options: DocumentOptions;
}

export const EXPORT_USAGE = [
  ...usage(
    'export',
    'RESULT.json --to docx|html|md|chapters|chapters-vtt [-o FILE] [--title TEXT] [--timestamps speaker|segment|none|SECONDS] [--speaker-names true|false] [--pauses SECONDS|off] [--overlaps true|false] [--sentiment true|false]',
  ),
  '',
  ...paragraph(
    'Writes a transcription result (a saved response, or what "murmur transcribe" printed) as a document: Word (docx), one self-contained web page (html) or Markdown (md); or its chapters as "0:00 Headline" lines for a video description (chapters) or a WebVTT chapters track (chapters-vtt). A result without chapters is cut into chapters first.',
  ),
  '',
  'Options:',
  ...optionTable([
    ['--to FORMAT', 'docx, html, md, chapters or chapters-vtt.'],
    [
      '-o FILE',
      'Where to write it (its folder must exist). Default: docx beside RESULT with its extension, the others on stdout.',
    ],
    ['--title TEXT', 'The heading. Default: the result file name.'],
    [
      '--timestamps WHEN',
      'A time at each change of speaker (speaker, the default), at every segment (segment), every SECONDS seconds, or none.',
    ],
    ['--speaker-names true|false', 'Each turn begins with its speaker. Default: true.'],
    ['--pauses SECONDS|off', 'Mark silences longer than SECONDS. Default: 5.'],
    ['--overlaps true|false', 'Mark a turn that starts over the previous speaker. Default: true.'],
    [
      '--sentiment true|false',
      'Open with the sentiment (shares of time by speaker, the negative moments) when RESULT has it. Default: true.',
    ],
    ['--help', 'This text.'],
  ]),
  '',
  ...paragraph(
    'Exit status: 0 written; 2 a problem with the command line, RESULT or the output folder; 1 any other failure; 130 or 143 when interrupted by Ctrl-C or SIGTERM before the document is written.',
  ),
  '',
].join('\n');

function boolean(name: string, value: string): boolean {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new CliUsageError(`--${name} takes true or false; got "${value}".`);
}

function seconds(name: string, value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0) {
    throw new CliUsageError(`--${name} takes a number of seconds above 0; got "${value}".`);
  }
  return n;
}

function timestamps(value: string): TimestampRule {
  if (value === 'speaker') return { at: 'speaker-change' };
  if (value === 'segment' || value === 'none') return { at: value };
  return { at: 'interval', seconds: seconds('timestamps', value) };
}

/** The options of `murmur export` that take a value. */
const EXPORT_OPTIONS = [
  'to',
  'output',
  'title',
  'timestamps',
  'speaker-names',
  'pauses',
  'overlaps',
  'sentiment',
];

/** `murmur export` arguments; null for `--help`. */
export function parseExportArgs(argv: readonly string[]): ExportArgs | null {
  let result: string | null = null;
  let to: ExportArgs['to'] | null = null;
  let output: string | null = null;
  let title: string | null = null;
  const options = { ...DEFAULT_DOCUMENT_OPTIONS };
  const rest = [...argv];
  while (rest.length > 0) {
    const arg = rest.shift() as string;
    if (arg === '--help' || arg === '-h') return null;
    if (!arg.startsWith('-')) {
      if (result !== null)
        throw new CliUsageError(`Only one RESULT may be given; got "${arg}" too.`);
      result = arg;
      continue;
    }
    if (arg !== '-o' && !EXPORT_OPTIONS.includes(arg.slice(2)))
      throw new CliUsageError(unknownOption(arg, ['help', ...EXPORT_OPTIONS]));
    const value = rest.shift();
    if (value === undefined) throw new CliUsageError(`${arg} needs a value.`);
    switch (arg) {
      case '--to':
        to = FORMATS.find((f) => f === value) ?? null;
        if (to === null) {
          throw new CliUsageError(
            `--to takes docx, html, md, chapters or chapters-vtt; got "${value}".`,
          );
        }
        break;
      case '-o':
      case '--output':
        output = value;
        break;
      case '--title':
        title = value;
        break;
      case '--timestamps':
        options.timestamps = timestamps(value);
        break;
      case '--speaker-names':
        options.speakerNames = boolean('speaker-names', value);
        break;
      case '--pauses':
        options.pauseSeconds = value === 'off' ? null : seconds('pauses', value);
        break;
      case '--overlaps':
        options.markOverlaps = boolean('overlaps', value);
        break;
      case '--sentiment':
        options.sentiment = boolean('sentiment', value);
        break;
      default:
        throw new CliUsageError(unknownOption(arg, ['help', ...EXPORT_OPTIONS]));
    }
  }
  if (result === null) throw new CliUsageError('export needs a RESULT.json file.');
  if (to === null) {
    throw new CliUsageError('export needs --to docx, html, md, chapters or chapters-vtt.');
  }
  const name = basename(result, extname(result));
  return { result, to, output, options: { ...options, title: title ?? name } };
}

/** A result as saved by the page or printed by the CLI: the response, with its segments. */
function readResponse(path: string, text: string): TranscriptionResponse {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliUsageError(`"${path}" is not JSON.`);
  }
  const segments = (parsed as { prediction_raw?: { transcription?: unknown } } | null)
    ?.prediction_raw?.transcription;
  if (!Array.isArray(segments)) {
    throw new CliUsageError(
      `"${path}" is not a transcription result: it has no prediction_raw.transcription.`,
    );
  }
  return parsed as TranscriptionResponse;
}

/** The result's chapters (found now when it was transcribed without), as a list. */
async function chapterList(response: TranscriptionResponse, to: ChapterFormat): Promise<string> {
  const raw = response.prediction_raw;
  const duration = raw.metadata?.provided_file_metadata?.duration ?? 0;
  const chapters =
    raw.chapters ?? findChapters(raw.transcription, duration, await loadStopWords()).chapters;
  return to === 'chapters' ? renderChapterLines(chapters) : renderVttChapters(chapters, duration);
}

/** Rejects with an `AbortError` as soon as `signal` aborts, whatever `work` is doing. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new DOMException('The export was cancelled.', 'AbortError'));
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Runs `murmur export`; returns the exit status (2 for a usage or input problem). When
 * `signal` aborts (Ctrl-C) before the document is written, nothing is written.
 */
export async function runExport(
  argv: readonly string[],
  io: CliIo,
  signal?: AbortSignal,
): Promise<number> {
  let args: ExportArgs | null = null;
  try {
    args = parseExportArgs(argv);
    if (args === null) {
      io.stdout(EXPORT_USAGE);
      return 0;
    }
    const { result, to, options } = args;
    const text = await readFile(result, 'utf8').catch(() => {
      throw new CliUsageError(`No readable file at "${result}".`);
    });
    const response = readResponse(result, text);
    const output = args.output ?? (to === 'docx' ? `${result.replace(/\.json$/i, '')}.docx` : null);
    // A path that cannot be written is said before the document is made.
    const problem = output === null ? null : await outputPathProblem(output);
    if (problem !== null) throw new CliUsageError(problem);
    const rendered = await untilAborted(
      (async () => {
        if (to === 'chapters' || to === 'chapters-vtt') return chapterList(response, to);
        const doc = transcriptDocument(response, options);
        return to === 'docx'
          ? renderDocx(doc)
          : to === 'html'
            ? renderHtml(doc)
            : renderMarkdown(doc);
      })(),
      signal,
    );
    // A signal that came while the document was made wins: nothing is written.
    await new Promise((resolve) => setImmediate(resolve));
    signal?.throwIfAborted();
    if (output === null) {
      io.stdout(rendered as string);
      return 0;
    }
    await writeOutputFile(output, rendered, signal);
    io.stderr(`murmur: wrote ${output}\n`);
    return 0;
  } catch (e) {
    if (signal?.aborted) {
      io.stderr('murmur: The export was cancelled; nothing was written.\n');
      return 2;
    }
    if (!(e instanceof CliUsageError)) throw e;
    io.stderr(`murmur: ${e.message} See "murmur export --help".\n`);
    return 2;
  }
}
