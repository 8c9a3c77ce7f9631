/**
 * How every command's `--help` is laid out: paragraphs and option tables wrapped to a terminal
 * of 80 columns, so that a default that grows (a longer model id) moves to the next line
 * instead of running past the edge.
 */
export const HELP_WIDTH = 80;

/** Where an option's description starts. */
const DESCRIPTION_COLUMN = 27;

/** `text`'s words as lines of at most `width` characters (a longer word has a line of its own). */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** A paragraph, wrapped. */
export function paragraph(text: string, indent = 0): string[] {
  const pad = ' '.repeat(indent);
  return wrapWords(text, HELP_WIDTH - indent).map((line) => `${pad}${line}`);
}

/**
 * An option table: each flag at column 3, its description wrapped beside it, or under it when
 * the flag is too long to leave room.
 */
export function optionTable(entries: readonly (readonly [flag: string, text: string])[]): string[] {
  const pad = ' '.repeat(DESCRIPTION_COLUMN);
  return entries.flatMap(([flag, text]) => {
    const head = `  ${flag}`;
    const lines = wrapWords(text, HELP_WIDTH - DESCRIPTION_COLUMN).map((line) => `${pad}${line}`);
    if (head.length + 2 > DESCRIPTION_COLUMN) return [head, ...lines];
    return [`${head.padEnd(DESCRIPTION_COLUMN)}${lines[0]!.trimStart()}`, ...lines.slice(1)];
  });
}

/**
 * A usage line: `Usage: murmur COMMAND` and its arguments, wrapped under the first argument
 * when they do not fit.
 */
export function usage(command: string, args: string): string[] {
  const head = `Usage: murmur ${command} `;
  const pad = ' '.repeat(head.length);
  // Brackets are kept whole (nested ones too): a line breaks only between two of them.
  const parts: string[] = [];
  let depth = 0;
  // A flag is kept with its value too ("--voices FILE.json").
  let flag = false;
  for (const word of args.split(' ')) {
    if (depth > 0 || (flag && !word.startsWith('-'))) parts[parts.length - 1] += ` ${word}`;
    else parts.push(word);
    flag = depth === 0 && word.startsWith('--') && !word.includes('[');
    depth += (word.match(/\[/g)?.length ?? 0) - (word.match(/\]/g)?.length ?? 0);
  }
  const lines: string[] = [];
  let line = '';
  for (const part of parts) {
    if (line !== '' && head.length + line.length + 1 + part.length > HELP_WIDTH) {
      lines.push(line);
      line = part;
    } else line = line === '' ? part : `${line} ${part}`;
  }
  lines.push(line);
  return lines.map((l, i) => `${i === 0 ? head : pad}${l}`);
}
