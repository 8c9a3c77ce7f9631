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

/** What is wrong with a script to align, named by its field (`script`): none when it has words. */
export function scriptProblems(text: string): FieldProblem[] {
  if (parseScript(text).lines.length > 0) return [];
  return [
    { field: 'script', message: 'The script has no words to time: give the text that was said.' },
  ];
}

/** Every word of a script, in order. */
export function scriptWords(script: Script): string[] {
  return script.lines.flatMap((line) => line.words);
}
