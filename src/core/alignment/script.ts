import type { FieldProblem } from '../contract/errors';
import { parseSubtitles } from '../subtitles/parse';

/**
 * A text to time against its media: a script, notes typed during a talk, or subtitles whose
 * times are wrong. Its words are kept exactly as written; only their times are found.
 */
export interface Script {
  /** The pieces that become the response's segments, in order. */
  lines: ScriptLine[];
  /** Where the text came from: subtitles keep their cues as segments. */
  kind: 'text' | 'subtitles';
}

export interface ScriptLine {
  /** The words as written, punctuation attached (split at white space). */
  words: string[];
}

/** A sentence ends at one of these, followed by white space. */
const SENTENCE_END = /(?<=[.!?…。！？])\s+/u;
/** Scripts in languages written without spaces (Chinese, Japanese, Thai). */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

/**
 * Reads a script. SubRip or WebVTT text gives one line per cue (its times are ignored: they are
 * what gets found); any other text one line per sentence, a new line of the text also ending
 * one. Words are split at white space; a run of text written without spaces is timed character
 * by character, the only unit that text has without a dictionary.
 */
export function parseScript(text: string): Script {
  const cues = parseSubtitles(text);
  if (cues.length > 0) {
    const lines = cues.map((cue) => ({ words: wordsOf(cue.lines.join(' ')) }));
    return { kind: 'subtitles', lines: lines.filter((line) => line.words.length > 0) };
  }
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r\n?|\n/)
    .flatMap((line) => line.split(SENTENCE_END))
    .map((sentence) => ({ words: wordsOf(sentence) }))
    .filter((line) => line.words.length > 0);
  return { kind: 'text', lines };
}

function wordsOf(text: string): string[] {
  return text
    .split(/\s+/u)
    .filter(Boolean)
    .flatMap((word) => (UNSPACED.test(word) ? unspacedUnits(word) : [word]));
}

/**
 * A word of unspaced script as units: each character of that script, punctuation joined to
 * the unit before it, and a run of other letters (a Latin name, digits) as one unit.
 */
function unspacedUnits(word: string): string[] {
  const units: string[] = [];
  for (const char of word) {
    const last = units.at(-1);
    const joins =
      last !== undefined &&
      (/^\p{P}$/u.test(char) || (!UNSPACED.test(char) && !UNSPACED.test(last.at(-1)!)));
    if (joins) units[units.length - 1] = last + char;
    else units.push(char);
  }
  return units;
}

/**
 * The longest script taken, in bytes of UTF-8: read before anything is parsed, so that a file
 * that is not a script costs nothing. A day of fast speech (4 words a second, 6 bytes a word)
 * is about 2 MB.
 */
export const MAX_SCRIPT_BYTES = 4_000_000;

/**
 * Words a second of media can hold at most, for a script to be timed to it: well above the
 * fastest speech (auctioneers and speed talkers reach about 6), and a floor of
 * `MIN_SCRIPT_WORD_LIMIT` words so that a short clip takes a short text whatever its length.
 */
export const MAX_SCRIPT_WORDS_PER_SECOND = 10;
export const MIN_SCRIPT_WORD_LIMIT = 100;

const problem = (message: string): FieldProblem => ({ field: 'script', message });

const GIVE_TEXT = 'Give the text that was said as plain text, SRT or VTT, in UTF-8.';

/** Why a script of `bytes` bytes is not read, or null. */
export function scriptSizeProblem(bytes: number): FieldProblem | null {
  return bytes > MAX_SCRIPT_BYTES ? tooLarge(bytes) : null;
}

function tooLarge(bytes: number): FieldProblem {
  const mb = (n: number) =>
    `${(n / 1_000_000).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`;
  return problem(
    `The script is ${mb(bytes)}, more than the ${mb(MAX_SCRIPT_BYTES)} of text a script may be.`,
  );
}

/**
 * The text of a script file's bytes, or why it is not text: UTF-8 (a byte-order mark dropped),
 * or UTF-16 when a byte-order mark says so. Its size is checked before anything is decoded.
 */
export function scriptText(bytes: Uint8Array): { text: string } | { problem: FieldProblem } {
  const large = scriptSizeProblem(bytes.length);
  if (large !== null) return { problem: large };
  const utf16 =
    bytes[0] === 0xff && bytes[1] === 0xfe
      ? 'utf-16le'
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? 'utf-16be'
        : null;
  try {
    const text = new TextDecoder(utf16 ?? 'utf-8', { fatal: true }).decode(bytes);
    return { text };
  } catch {
    const at = firstInvalidUtf8(bytes);
    let line = 1;
    for (let i = 0; i < at; i++) if (bytes[i] === 0x0a) line++;
    return {
      problem: problem(
        `The script is not text: line ${line} holds bytes that are not ${utf16 === null ? 'UTF-8' : 'UTF-16'}. ${GIVE_TEXT}`,
      ),
    };
  }
}

/** The offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let low = 0;
  let high = bytes.length;
  // The longest valid prefix, found by halving: a prefix may end inside a sequence, so a
  // prefix counts as valid when it decodes with up to 3 bytes left off its end.
  const valid = (n: number) => {
    for (let cut = 0; cut <= Math.min(3, n); cut++) {
      try {
        decoder.decode(bytes.subarray(0, n - cut));
        return true;
      } catch {
        /* not yet */
      }
    }
    return false;
  };
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (valid(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * Whether a character is one that text does not hold: NUL, control characters other than white
 * space (tab, line and page breaks), a surrogate alone, and U+FFFD, the mark a reader leaves for
 * bytes that were not UTF-8. Binary data read as text is full of them.
 */
function isNotText(code: number): boolean {
  return (
    code <= 0x08 ||
    (code >= 0x0e && code <= 0x1f) ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0xd800 && code <= 0xdfff) ||
    code === 0xfffd
  );
}

function notText(text: string): FieldProblem | null {
  let line = 1;
  // By code point: a surrogate pair is one character, and only a surrogate alone is caught.
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code === 0x0a) line++;
    if (!isNotText(code)) continue;
    const what =
      code === 0
        ? 'a NUL byte'
        : code === 0xfffd
          ? 'bytes that are not UTF-8'
          : code >= 0xd800 && code <= 0xdfff
            ? 'half of a UTF-16 character'
            : `the control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    return problem(`The script is not text: line ${line} holds ${what}. ${GIVE_TEXT}`);
  }
  return null;
}

/** UTF-8 bytes of a text, counted without encoding it. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * What is wrong with a script to align, named by its field (`script`): none when it is text of
 * a script's size with words. Its size is checked before it is read further.
 */
export function scriptProblems(text: string): FieldProblem[] {
  if (text.length > MAX_SCRIPT_BYTES) return [tooLarge(utf8Length(text))];
  const bytes = utf8Length(text);
  if (bytes > MAX_SCRIPT_BYTES) return [tooLarge(bytes)];
  const binary = notText(text);
  if (binary !== null) return [binary];
  const long = longWord(text);
  if (long !== null) return [long];
  if (parseScript(text).lines.length > 0) return [];
  return [problem('The script has no words to time: give the text that was said.')];
}

/**
 * The most characters a word of a script may have: the longest words of any language (German
 * compounds, Finnish, a web address said aloud) stay under it, and a recogniser is given a
 * word's tokens within one window, which has room for about 440 (three a character at most).
 */
export const MAX_SCRIPT_WORD_CHARS = 100;

/** Why a script holds a word too long to be said, naming its line, or null. */
function longWord(text: string): FieldProblem | null {
  let line = 1;
  let run = 0;
  for (const char of text) {
    if (char === '\n') line++;
    // Text written without spaces is timed character by character (see `parseScript`).
    run = /\s/u.test(char) || UNSPACED.test(char) ? 0 : run + 1;
    if (run > MAX_SCRIPT_WORD_CHARS) {
      return problem(
        `The script has a word of more than ${MAX_SCRIPT_WORD_CHARS} characters on line ${line}: nobody says a word that long. ${GIVE_TEXT}`,
      );
    }
  }
  return null;
}

/** Words a script to time to `seconds` of media may have at most. */
export function scriptWordLimit(seconds: number): number {
  return Math.max(MIN_SCRIPT_WORD_LIMIT, Math.ceil(seconds * MAX_SCRIPT_WORDS_PER_SECOND));
}

/**
 * Why a script is far longer than `seconds` of media could hold, or null: more words than
 * `scriptWordLimit` allows.
 */
export function scriptLengthProblem(script: Script, seconds: number): FieldProblem | null {
  const words = scriptWords(script).length;
  const limit = scriptWordLimit(seconds);
  if (words <= limit) return null;
  const count = (n: number) => n.toLocaleString('en-US');
  return problem(
    `The script has ${count(words)} words, more than ${seconds.toLocaleString('en-US', { maximumFractionDigits: 1 })} s of media can hold: at most ${count(limit)} (${MAX_SCRIPT_WORDS_PER_SECOND} words a second, ${MIN_SCRIPT_WORD_LIMIT} at the least).`,
  );
}

/** Every word of a script, in order. */
export function scriptWords(script: Script): string[] {
  return script.lines.flatMap((line) => line.words);
}
