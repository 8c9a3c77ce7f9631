import { readFile, writeFile } from 'node:fs/promises';
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
import { CliUsageError } from './cli-args';
import { optionTable, paragraph, usage } from './help-layout';
import type { CliIo } from './cli';

export type DocumentFormat = 'docx' | 'html' | 'md';

export interface ExportArgs {
  result: string;
  to: DocumentFormat;
  output: string | null;
  options: DocumentOptions;
}

export const EXPORT_USAGE = [
  ...usage(
    'export',
    'RESULT.json --to docx|html|md [-o FILE] [--title TEXT] [--timestamps speaker|segment|none|SECONDS] [--speaker-names true|false] [--pauses SECONDS|off] [--overlaps true|false]',
  ),
  '',
  ...paragraph(
    'Writes a transcription result (a saved response, or what "murmur transcribe" printed) as a document: Word (docx), one self-contained web page (html) or Markdown (md).',
  ),
  '',
  'Options:',
  ...optionTable([
    ['--to docx|html|md', 'The document format.'],
    [
      '-o FILE',
      'Where to write it. Default: html and md on stdout, docx beside RESULT with its extension.',
    ],
    ['--title TEXT', 'The heading. Default: the result file name.'],
    [
      '--timestamps WHEN',
      'A time at each change of speaker (speaker, the default), at every segment (segment), every SECONDS seconds, or none.',
    ],
    ['--speaker-names true|false', 'Each turn begins with its speaker. Default: true.'],
    ['--pauses SECONDS|off', 'Mark silences longer than SECONDS. Default: 5.'],
    ['--overlaps true|false', 'Mark a turn that starts over the previous speaker. Default: true.'],
    ['--help', 'This text.'],
  ]),
  '',
  ...paragraph(
    'Exit status: 0 written; 2 a problem with the command line or RESULT; 1 any other failure.',
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

/** `murmur export` arguments; null for `--help`. */
export function parseExportArgs(argv: readonly string[]): ExportArgs | null {
  let result: string | null = null;
  let to: DocumentFormat | null = null;
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
    const value = rest.shift();
    if (value === undefined) throw new CliUsageError(`${arg} needs a value.`);
    switch (arg) {
      case '--to':
        if (value !== 'docx' && value !== 'html' && value !== 'md') {
          throw new CliUsageError(`--to takes docx, html or md; got "${value}".`);
        }
        to = value;
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
      default:
        throw new CliUsageError(`Unknown option ${arg} for export.`);
    }
  }
  if (result === null) throw new CliUsageError('export needs a RESULT.json file.');
  if (to === null) throw new CliUsageError('export needs --to docx, html or md.');
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

/** Runs `murmur export`; returns the exit status (2 for a usage or input problem). */
export async function runExport(argv: readonly string[], io: CliIo): Promise<number> {
  let args: ExportArgs | null;
  let response: TranscriptionResponse;
  try {
    args = parseExportArgs(argv);
    if (args === null) {
      io.stdout(EXPORT_USAGE);
      return 0;
    }
    const text = await readFile(args.result, 'utf8').catch(() => {
      throw new CliUsageError(`No readable file at "${args!.result}".`);
    });
    response = readResponse(args.result, text);
  } catch (e) {
    if (!(e instanceof CliUsageError)) throw e;
    io.stderr(`murmur: ${e.message} See "murmur export --help".\n`);
    return 2;
  }
  const doc = transcriptDocument(response, args.options);
  if (args.to === 'docx') {
    const output = args.output ?? `${args.result.replace(/\.json$/i, '')}.docx`;
    await writeFile(output, await renderDocx(doc));
    io.stderr(`murmur: wrote ${output}\n`);
    return 0;
  }
  const text = args.to === 'html' ? renderHtml(doc) : renderMarkdown(doc);
  if (args.output === null) io.stdout(text);
  else {
    await writeFile(args.output, text);
    io.stderr(`murmur: wrote ${args.output}\n`);
  }
  return 0;
}
