import { readFile } from 'node:fs/promises';
import { checkSubtitles } from '../../core/subtitles/check';
import {
  DEFAULT_PROFILE,
  PRESET_PROFILES,
  presetProfile,
  type SubtitleProfile,
} from '../../core/subtitles/profiles';
import { formatTimecode } from '../../core/format/timecode';
import { CliUsageError, unknownOption } from './cli-args';
import { optionTable, paragraph, usage } from './help-layout';
import type { CliIo } from './cli';

export const CHECK_USAGE = [
  ...usage('check', 'FILE.srt|FILE.vtt [--profile netflix-en|bbc|vertical]'),
  '',
  ...paragraph(
    "Checks every cue of a subtitle file against a profile's limits: reading speed, shortest and longest time on screen, the gap to the next cue (and overlaps), characters a line, lines a cue. Prints one line per finding (time, kind, sentence) and a summary.",
  ),
  '',
  'Options:',
  ...optionTable([
    [
      '--profile NAME',
      'netflix-en (Netflix English: 42 characters a line, 20 a second), bbc (BBC: 37, 17) or vertical (9:16 video: 26, 17). Default: netflix-en.',
    ],
    ['--help', 'This text.'],
  ]),
  '',
  ...paragraph('Exit status: 0 no findings; 1 findings; 2 a problem with the command or the file.'),
  '',
].join('\n');

const names = () => {
  const ids = PRESET_PROFILES.map((p) => p.id);
  return `${ids.slice(0, -1).join(', ')} and ${ids.at(-1)}`;
};

/** `murmur check` arguments; null for `--help`. */
export function parseCheckArgs(
  argv: readonly string[],
): { file: string; profile: SubtitleProfile } | null {
  let file: string | null = null;
  let profile = DEFAULT_PROFILE;
  const rest = [...argv];
  while (rest.length > 0) {
    const arg = rest.shift() as string;
    if (arg === '--help' || arg === '-h') return null;
    if (!arg.startsWith('-')) {
      if (file !== null) throw new CliUsageError(`Only one FILE may be given; got "${arg}" too.`);
      file = arg;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (name !== '--profile') throw new CliUsageError(unknownOption(name, ['help', 'profile']));
    const value = eq === -1 ? rest.shift() : arg.slice(eq + 1);
    if (value === undefined) throw new CliUsageError('--profile needs a value.');
    const found = presetProfile(value);
    if (found === undefined) {
      throw new CliUsageError(`Unknown profile "${value}"; the profiles are ${names()}.`);
    }
    profile = found;
  }
  if (file === null) throw new CliUsageError('check needs an SRT or VTT file.');
  return { file, profile };
}

/** Runs `murmur check`: 0 without findings, 1 with any, 2 for a usage or input problem. */
export async function runCheck(argv: readonly string[], io: CliIo): Promise<number> {
  let args: { file: string; profile: SubtitleProfile } | null;
  let text: string;
  try {
    args = parseCheckArgs(argv);
    if (args === null) {
      io.stdout(CHECK_USAGE);
      return 0;
    }
    const file = args.file;
    text = await readFile(file, 'utf8').catch(() => {
      throw new CliUsageError(`No readable file at "${file}".`);
    });
  } catch (e) {
    if (!(e instanceof CliUsageError)) throw e;
    io.stderr(`murmur: ${e.message} See "murmur check --help".\n`);
    return 2;
  }
  const { cues, findings } = checkSubtitles(text, args.profile);
  if (cues.length === 0 && text.trim() !== '' && text.trim() !== 'WEBVTT') {
    io.stderr(`murmur: "${args.file}" holds no SRT or VTT cues. See "murmur check --help".\n`);
    return 2;
  }
  for (const f of findings) {
    io.stdout(`${formatTimecode(Math.round(f.start * 1000), ',')}  ${f.kind}  ${f.message}\n`);
  }
  const count = findings.length === 1 ? '1 finding' : `${findings.length} findings`;
  const cueCount = cues.length === 1 ? '1 cue' : `${cues.length} cues`;
  // Which cues the findings are in, out of all: "in 1 of 3 cues" says how much needs work.
  const faulty = new Set(findings.map((f) => f.cue)).size;
  io.stdout(
    findings.length === 0
      ? `No findings in ${cueCount} against ${args.profile.id}.\n`
      : `${count} in ${faulty} of ${cueCount} against ${args.profile.id}.\n`,
  );
  return findings.length === 0 ? 0 : 1;
}
