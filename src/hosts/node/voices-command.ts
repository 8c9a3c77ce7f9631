import { cleanVoiceName, sameVoiceName, type Voice } from '../../core/voices/voice';
import type { CliIo, CliOptions } from './cli';
import { CliUsageError, unknownOption } from './cli-args';
import { readVoicesAt, updateVoicesAt, VoicesOnDiskError } from './job-runtime/voices-on-disk';
import { enrolVoice, parseVoicesAddArgs } from './voices-add';
import {
  isVoicesCommand,
  voicesAddHelp,
  voicesHelp,
  voicesListHelp,
  voicesRemoveHelp,
  type VoicesCommand,
} from './voices-help';

/** `murmur voices add|list|remove`: the voices a file keeps, remembered, listed and forgotten. */

const HELP: Record<VoicesCommand, () => string> = {
  add: voicesAddHelp,
  list: voicesListHelp,
  remove: voicesRemoveHelp,
};

/** `NAME? --voices FILE.json` of `list` (no NAME) and `remove` (one NAME); null for `--help`. */
function parseFileArgs(
  command: 'list' | 'remove',
  argv: readonly string[],
): { name: string | null; file: string } | null {
  let name: string | null = null;
  let file: string | null = null;
  const rest = [...argv];
  while (rest.length > 0) {
    const arg = rest.shift() as string;
    if (arg === '--help' || arg === '-h') return null;
    if (arg === '--voices' || arg.startsWith('--voices=')) {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : rest.shift();
      if (value === undefined || value === '') throw new CliUsageError('--voices needs a value.');
      file = value;
    } else if (arg.startsWith('-')) {
      throw new CliUsageError(unknownOption(arg.split('=')[0]!, ['help', 'voices']));
    } else if (command === 'remove' && name === null) {
      name = arg;
    } else {
      throw new CliUsageError(
        command === 'list'
          ? `murmur voices list takes no NAME; got "${arg}".`
          : `murmur voices remove takes one NAME; got "${arg}" too.`,
      );
    }
  }
  if (command === 'remove' && (name === null || name.trim() === ''))
    throw new CliUsageError('murmur voices remove needs the NAME of the voice to forget.');
  if (file === null) throw new CliUsageError('Give the voices file: --voices FILE.json.');
  return { name, file };
}

/** When, in UTC to the minute: "2026-03-14 09:26". */
const when = (iso: string) => new Date(iso).toISOString().slice(0, 16).replace('T', ' ');

/** The voices as a table that lines up in a terminal: a header, then a line a voice. */
export function voicesTable(voices: readonly Voice[]): string {
  const rows = [
    ['NAME', 'SECONDS', 'RECORDINGS', 'MODEL', 'MADE', 'UPDATED'],
    ...voices.map((v) => [
      v.name,
      v.seconds.toFixed(1),
      String(v.recordings),
      v.model,
      when(v.created),
      when(v.updated),
    ]),
  ];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  // Numbers are right-aligned, words left-aligned.
  const numeric = [false, true, true, false, false, false];
  return rows
    .map((r) =>
      r
        .map((cell, c) => (numeric[c] ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
        .join('  ')
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('');
}

async function list(file: string, io: CliIo): Promise<number> {
  const voices = await readVoicesAt(file);
  if (voices.length === 0) io.stdout(`No voices in "${file}".\n`);
  else io.stdout(voicesTable(voices));
  return 0;
}

async function remove(name: string, file: string, io: CliIo): Promise<number> {
  const gone = await updateVoicesAt(file, (voices) => {
    const kept = voices.filter((v) => !sameVoiceName(v.name, name));
    if (kept.length === voices.length) {
      const names = [...new Set(voices.map((v) => `"${v.name}"`))];
      throw new CliUsageError(
        `No voice called "${cleanVoiceName(name)}" in "${file}"${names.length === 0 ? ': it has none.' : `; its voices are ${names.join(', ')}.`}`,
      );
    }
    return { voices: kept, result: voices.find((v) => sameVoiceName(v.name, name))!.name };
  });
  io.stderr(`murmur: forgot the voice "${gone}" in ${file}\n`);
  return 0;
}

/** Runs `murmur voices ...` (argv after `voices`); returns the exit status. */
export async function runVoices(
  argv: readonly string[],
  io: CliIo,
  options: CliOptions = {},
): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h') {
    (command === undefined ? io.stderr : io.stdout)(voicesHelp());
    return command === undefined ? 2 : 0;
  }
  const helpFor = isVoicesCommand(command)
    ? `murmur voices ${command} --help`
    : 'murmur voices --help';
  try {
    if (!isVoicesCommand(command))
      throw new CliUsageError(
        `Unknown command "voices ${command}"; voices takes add, list or remove.`,
      );
    if (command === 'add') {
      const args = parseVoicesAddArgs(rest);
      if (args === null) {
        io.stdout(HELP.add());
        return 0;
      }
      return await enrolVoice(args, io, options);
    }
    const args = parseFileArgs(command, rest);
    if (args === null) {
      io.stdout(HELP[command]());
      return 0;
    }
    return command === 'list' ? await list(args.file, io) : await remove(args.name!, args.file, io);
  } catch (thrown) {
    if (thrown instanceof VoicesOnDiskError) {
      io.stderr(`murmur: ${thrown.message}\n`);
      return 2;
    }
    if (!(thrown instanceof CliUsageError)) throw thrown;
    io.stderr(`murmur: ${thrown.message} See "${helpFor}".\n`);
    return 2;
  }
}
