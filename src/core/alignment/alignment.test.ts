import { comparableForm, spokenForms } from './spoken-forms';
import { describe, expect, it } from 'vitest';
import { nextRun } from './runs';
import { DEFAULT_ONSET_SETTINGS, snapToOnsets, soundEnds, soundOnsets } from './onsets';
import {
  parseScript,
  scriptLengthProblem,
  scriptProblems,
  scriptText,
  scriptWordLimit,
  scriptWords,
} from './script';
import { comparableWord, estimateWordTimes, matchWords } from './word-matching';

describe('parseScript', () => {
  it('makes a line of each sentence and each line of the text, words kept as written', () => {
    const script = parseScript('\uFEFFHello there, Anna! How are you?\nFine.\n\n  thanks  ');
    expect(script.kind).toBe('text');
    expect(script.lines.map((l) => l.words)).toEqual([
      ['Hello', 'there,', 'Anna!'],
      ['How', 'are', 'you?'],
      ['Fine.'],
      ['thanks'],
    ]);
  });

  it('makes a line of each cue of SubRip or WebVTT, its times ignored', () => {
    const srt =
      '1\n00:00:01,000 --> 00:00:02,000\nFirst <i>cue</i>\nsecond line\n\n2\n00:00:09,000 --> 00:00:09,500\nLast.\n';
    const script = parseScript(srt);
    expect(script.kind).toBe('subtitles');
    expect(script.lines.map((l) => l.words)).toEqual([
      ['First', 'cue', 'second', 'line'],
      ['Last.'],
    ]);
    const vtt = parseScript('WEBVTT\n\n00:01.000 --> 00:02.000\nBonjour à tous\n');
    expect(scriptWords(vtt)).toEqual(['Bonjour', 'à', 'tous']);
  });

  it('times unspaced scripts character by character, punctuation and Latin runs kept whole', () => {
    expect(scriptWords(parseScript('我们去MIT学习。'))).toEqual([
      '我',
      '们',
      '去',
      'MIT',
      '学',
      '习。',
    ]);
  });

  it('finds no line in text without words', () => {
    expect(parseScript(' \n\t\n').lines).toEqual([]);
  });
});

describe('a script that is text', () => {
  const utf8 = (text: string) => new TextEncoder().encode(text);

  it('reads UTF-8 (its byte-order mark dropped) and UTF-16 with a byte-order mark', () => {
    expect(scriptText(utf8('\uFEFFcafé au lait'))).toEqual({ text: 'café au lait' });
    const le = Uint8Array.from([0xff, 0xfe, ...[...'hé'].flatMap((c) => [c.charCodeAt(0), 0])]);
    expect(scriptText(le)).toEqual({ text: 'hé' });
    expect(scriptProblems('Tab\tand\r\nbreaks,\fpage: 😀 fine.')).toEqual([]);
  });

  it('refuses bytes that are not UTF-8, naming the line, and control characters in text', () => {
    const bad = Uint8Array.from([...utf8('one\ntwo\nthr'), 0xc3, 0x28, ...utf8('ee')]);
    expect(scriptText(bad)).toEqual({
      problem: {
        field: 'script',
        message:
          'The script is not text: line 3 holds bytes that are not UTF-8. Give the text that was said as plain text, SRT or VTT, in UTF-8.',
      },
    });
    const says = (text: string) => scriptProblems(text).map((p) => p.message.split('. ')[0]);
    expect(says('a\u0000b')).toEqual(['The script is not text: line 1 holds a NUL byte']);
    expect(says('a\nb\u001bc')).toEqual([
      'The script is not text: line 2 holds the control character U+001B',
    ]);
    expect(says('a\uFFFDb')).toEqual([
      'The script is not text: line 1 holds bytes that are not UTF-8',
    ]);
    expect(says('a\uD800b')).toEqual([
      'The script is not text: line 1 holds half of a UTF-16 character',
    ]);
  });

  it('refuses a text larger than a script may be, by its size in UTF-8', () => {
    expect(scriptProblems('é'.repeat(2_000_001)).map((p) => p.message)).toEqual([
      'The script is 4 MB, more than the 4 MB of text a script may be.',
    ]);
    expect(scriptText(new Uint8Array(4_000_001))).toEqual({
      problem: {
        field: 'script',
        message: 'The script is 4 MB, more than the 4 MB of text a script may be.',
      },
    });
    expect(scriptProblems('word '.repeat(100_000))).toEqual([]);
  });

  it('refuses a word longer than anybody says, naming its line, and takes unspaced text', () => {
    expect(scriptProblems(`one line\ntwo ${'a'.repeat(101)}`)).toEqual([
      {
        field: 'script',
        message:
          'The script has a word of more than 100 characters on line 2: nobody says a word that long. Give the text that was said as plain text, SRT or VTT, in UTF-8.',
      },
    ]);
    expect(scriptProblems('a'.repeat(3_900_000))).toHaveLength(1);
    expect(scriptProblems(`Donaudampfschifffahrtsgesellschaftskapitän ${'a'.repeat(100)}`)).toEqual(
      [],
    );
    expect(scriptProblems('我们'.repeat(200))).toEqual([]);
  });

  it('bounds the words to the media: 10 a second, 100 at the least', () => {
    expect(scriptWordLimit(3)).toBe(100);
    expect(scriptWordLimit(60.01)).toBe(601);
    const words = (n: number) => parseScript('word '.repeat(n));
    expect(scriptLengthProblem(words(601), 60.01)).toBeNull();
    expect(scriptLengthProblem(words(602), 60.01)).toEqual({
      field: 'script',
      message:
        'The script has 602 words, more than 60 s of media can hold: at most 601 (10 words a second, 100 at the least).',
    });
  });
});

describe('word matching', () => {
  it('compares words without case, accents, punctuation or spaces', () => {
    expect(comparableWord(' Éte,')).toBe('ete');
    expect(comparableWord('"Don\'t"')).toBe('dont');
  });

  it('lines up equal words, substitutions in place and words heard nowhere as null', () => {
    const matched = matchWords(
      ['the', 'cat', 'sat', 'on', 'the', 'mat'],
      ['the', 'bat', 'sat', 'the', 'mat', 'again'],
    );
    expect(matched).toEqual([0, 1, 2, null, 3, 4]);
  });

  it('lines a misheard word up with its own, and skips a word not said rather than pair it', () => {
    expect(matchWords(['doctor', 'see', 'Zorvaldi', 'bad'], ['doctor', 'sea', 'bad'])).toEqual([
      0,
      1,
      null,
      2,
    ]);
    expect(matchWords(['doctor', 'Zorvaldi', 'see', 'bad'], ['doctor', 'sea', 'bad'])).toEqual([
      0,
      null,
      1,
      2,
    ]);
  });

  it('spreads unheard words between their neighbours by length', () => {
    const estimates = estimateWordTimes(
      ['one', 'three', 'a', 'two'],
      [
        { text: ' one', start: 1, end: 1.5 },
        { text: ' two', start: 3.5, end: 4 },
      ],
      { start: 0, end: 10 },
    );
    const rounded = (t: number) => Math.round(t * 1e6) / 1e6;
    expect(estimates.map((e) => [rounded(e.start), rounded(e.end)])).toEqual([
      [1, 1.5],
      [1.5, rounded(1.5 + (2 * 5) / 6)],
      [rounded(1.5 + (2 * 5) / 6), 3.5],
      [3.5, 4],
    ]);
    expect(estimates.every((e) => !e.unheard)).toBe(true);
  });

  it('marks a run of words with no speech where it would stand as unheard', () => {
    const heard = [
      { text: 'one', start: 1, end: 1.5 },
      { text: 'two', start: 4, end: 4.5 },
    ];
    const script = ['one', 'never', 'said', 'at', 'all', 'two'];
    const silentGap = estimateWordTimes(script, heard, { start: 0, end: 10 }, () => 0.1);
    expect(silentGap.map((e) => e.unheard)).toEqual([false, true, true, true, true, false]);
    const spokenGap = estimateWordTimes(script, heard, { start: 0, end: 10 }, () => 2);
    expect(spokenGap.some((e) => e.unheard)).toBe(false);
  });
});

describe('nextRun', () => {
  const estimates = Array.from({ length: 10 }, (_, i) => ({
    start: i,
    end: i + 0.8,
    unheard: false,
    heard: false,
  }));

  it('takes the words whose estimates fit the budget, one at least', () => {
    expect(nextRun(estimates, new Set(), 0, 4)).toBe(4);
    expect(nextRun(estimates, new Set(), 9, 4)).toBe(10);
    expect(nextRun(estimates, new Set(), 2, 0.1)).toBe(3);
  });

  it('ends at a line end when that keeps the run at least half full', () => {
    expect(nextRun(estimates, new Set([2]), 0, 5)).toBe(3);
    expect(nextRun(estimates, new Set([0]), 0, 5)).toBe(5);
  });
});

describe('sound onsets', () => {
  /** Levels of 10-ms frames: -70 dB pauses, -20 dB sound, from [start, end) seconds pairs. */
  function levels(sounds: [number, number][], seconds: number): Float32Array {
    const out = new Float32Array(Math.round(seconds * 100)).fill(-70);
    for (const [a, b] of sounds) out.fill(-20, Math.round(a * 100), Math.round(b * 100));
    return out;
  }

  it('finds where sound starts after a pause, not after a dip shorter than a pause', () => {
    const onsets = soundOnsets(
      levels(
        [
          [0.5, 1.0],
          [1.03, 1.4],
          [2.0, 2.6],
        ],
        3,
      ),
    );
    expect(onsets.map((t) => Math.round(t * 100) / 100)).toEqual([0.5, 2]);
    expect(DEFAULT_ONSET_SETTINGS.minPauseSeconds).toBeGreaterThan(0.03);
  });

  it('finds none in a signal without pauses', () => {
    expect(soundOnsets(new Float32Array(300).fill(-20))).toEqual([]);
  });

  it('ends a word where its sound ends, keeping a dip inside it and a word with no sound', () => {
    const end = soundEnds(
      levels(
        [
          [0.5, 1.0],
          [1.03, 1.4],
          [2.0, 2.6],
        ],
        4,
      ),
    );
    // The pause after the word is cut off; the 30-ms dip inside it is not an end.
    expect(end(0.5, 1.95)).toBeCloseTo(1.4, 9);
    expect(end(0.5, 1.02)).toBe(1.02);
    expect(end(2.0, 2.6)).toBe(2.6);
    expect(end(2.0, 2.63)).toBe(2.63);
    expect(end(3.0, 3.5)).toBe(3.5);
    // Without pauses to tell speech from, nothing moves.
    expect(soundEnds(new Float32Array(300).fill(-20))(0.5, 2)).toBe(2);
  });

  it('moves word starts to the onsets they stand for, in order, where nearer ones are taken', () => {
    const truth = [0.8, 1.5, 2.27, 3.2, 4.04];
    // Forced decoding's times: the first word late by most of a word, the rest nearer.
    const decoded = [1.48, 1.48, 1.9, 3.16, 3.5];
    expect(snapToOnsets(decoded, truth, 1.5)).toEqual(truth);
  });

  it("takes recognition's time for a word as a second opinion on which onset it is", () => {
    const truth = [0.8, 1.5, 2.27, 3.2, 4.04];
    // A stretch decoded a word late: alone, each word would take its neighbour's onset.
    const late = [1.52, 2.3, 3.22, 4.0, 4.5];
    expect(snapToOnsets(late, truth, 1.5)).not.toEqual(truth);
    // Recognition's times: its segment starts exact (0.82, 3.18), the words within them early.
    expect(snapToOnsets(late, truth, 1.5, 1.5, [0.82, 1.4, 1.78, 3.18, 3.52])).toEqual(truth);
  });

  it('keeps a time with no onset in reach, and leaves an onset inside a word unused', () => {
    expect(snapToOnsets([1, 5], [1.05, 1.3, 9], 1.5)).toEqual([1.05, 5]);
  });
});

describe('spokenForms', () => {
  const english = (n: number) => (n === 3 ? 'three' : n === 42 ? 'forty-two' : null);

  it('gives a word without the punctuation around it, in each case', () => {
    expect(spokenForms('Dog,')).toEqual(['Dog', 'dog']);
    expect(spokenForms('¿Qué?')).toEqual(['Qué', 'qué']);
    expect(spokenForms('NASA!')).toEqual(['NASA', 'nasa', 'Nasa']);
    expect(spokenForms("don't")).toEqual(["don't", "Don't"]);
  });

  it('gives nothing for punctuation alone', () => {
    expect(spokenForms('—')).toEqual([]);
    expect(spokenForms('...')).toEqual([]);
  });

  it("gives a number's words in the script's language", () => {
    expect(spokenForms('3.', english)).toEqual(['3', 'three', 'Three']);
    expect(spokenForms('42', english)).toEqual([
      '42',
      'forty-two',
      'Forty-two',
      'forty two',
      'Forty two',
    ]);
    expect(spokenForms('3')).toEqual(['3']);
  });

  it('compares a number as digits and as words alike, and ignores case and punctuation', () => {
    expect(comparableForm('3,', english)).toBe(comparableForm('Three', english));
    expect(comparableForm('Élan!')).toBe('elan');
  });
});
