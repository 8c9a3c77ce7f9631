import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SPEAKER_NOT_ACTIVATED, type Segment } from '../contract/response';
import { DEFAULT_CUE_LIMITS, readableCues, type CueLimits } from './readable-cues';
import { renderReadableSrt, renderReadableVtt } from './readable-subtitles';

const ms = (s: number) => Math.round(s * 1000);

interface WordSpec {
  text: string;
  pause: number;
  duration: number;
}

const letters = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzéàüñ'.split(''));
const shortWord = fc.string({ unit: letters, minLength: 1, maxLength: 12 });
const longWord = fc.string({ unit: letters, minLength: 30, maxLength: 70 });
const wordText = (withLong: boolean) =>
  fc
    .tuple(
      withLong
        ? fc.oneof({ weight: 12, arbitrary: shortWord }, { weight: 1, arbitrary: longWord })
        : shortWord,
      fc.constantFrom('', '', '', '', ',', '.', '?', '!', ';'),
    )
    .map(([w, p]) => w + p);

const wordSpec = (fast: boolean) =>
  fc.record({
    // Slow speech keeps to words short enough to be read within the shortest longest cue.
    text: wordText(fast),
    pause: fc.oneof(
      fc.constant(0),
      fc.double({ min: 0, max: 0.4, noNaN: true }),
      fc.double({ min: 0, max: 3, noNaN: true }),
    ),
    duration: fast ? fc.double({ min: 0, max: 1.2, noNaN: true }) : fc.constant(-1),
  });

const segmentSpec = (fast: boolean) =>
  fc.record({
    speaker: fc.constantFrom(SPEAKER_NOT_ACTIVATED, 'Ana', 'Ben'),
    words: fc.array(wordSpec(fast), { minLength: 0, maxLength: 30 }),
  });

/** Segments laid out one after another, every time on the millisecond grid. */
function build(
  specs: { speaker: string; words: WordSpec[] }[],
  cps: number,
): { segments: Segment[]; speakers: string[] } {
  let t = 0;
  const speakers: string[] = [];
  const segments = specs.map((spec) => {
    const words = spec.words.map((w) => {
      const begin = ms(t + w.pause) / 1000;
      // A duration of -1 asks for speech no faster than the reading speed (with room to spare).
      const duration = w.duration < 0 ? (w.text.length + 3) / cps : w.duration;
      const end = ms(begin + duration) / 1000;
      t = end;
      speakers.push(spec.speaker);
      return { word: ` ${w.text}`, time_begin: begin, time_end: end, confidence: 0.9 };
    });
    return {
      words,
      transcription: words.map((w) => w.word).join(''),
      language: 'en',
      time_begin: words[0]?.time_begin ?? t,
      time_end: words.at(-1)?.time_end ?? t,
      speaker: spec.speaker,
      channel: 'channel_0',
    };
  });
  return { segments, speakers };
}

const limitsSpec = fc.record({
  maxLineChars: fc.integer({ min: 16, max: 60 }),
  maxLines: fc.integer({ min: 1, max: 3 }),
  maxCharsPerSecond: fc.integer({ min: 12, max: 25 }),
  minSeconds: fc.double({ min: 0.5, max: 1.5, noNaN: true }),
  maxSeconds: fc.double({ min: 3, max: 10, noNaN: true }),
  gapSeconds: fc.double({ min: 0, max: 0.08, noNaN: true }),
  breakPauseSeconds: fc.double({ min: 0.5, max: 3, noNaN: true }),
  speakerNames: fc.boolean(),
});

function checkLimits(segments: Segment[], speakers: string[], limits: CueLimits): boolean {
  const cues = readableCues(segments, limits);
  // No word lost, reordered or split.
  const given = segments.flatMap((s) => s.words.map((w) => w.word.trim()));
  expect(cues.flatMap((c) => c.words)).toEqual(given);
  let index = 0;
  cues.forEach((cue, c) => {
    const cueSpeakers = cue.words.map(() => speakers[index++]);
    // A speaker change starts a new cue.
    expect(new Set(cueSpeakers).size).toBe(1);
    const prefix =
      limits.speakerNames && cue.speaker !== SPEAKER_NOT_ACTIVATED ? `${cue.speaker}: ` : '';
    expect(cue.lines.join(' ')).toBe(prefix + cue.words.join(' '));
    expect(cue.lines.length).toBeLessThanOrEqual(limits.maxLines);
    for (const line of cue.lines) {
      // Only a single word longer than a line may exceed it (words are never cut).
      if (line.length > limits.maxLineChars) expect(line.slice(prefix.length)).not.toContain(' ');
    }
    const begin = ms(cue.begin);
    const end = ms(cue.end);
    expect(end).toBeGreaterThan(begin);
    expect(end - begin).toBeLessThanOrEqual(ms(limits.maxSeconds));
    const next = cues[c + 1];
    if (next) expect(ms(next.begin) - end).toBeGreaterThanOrEqual(ms(limits.gapSeconds));
    // Shorter than the minimum, or too fast to read, only when the next cue left no room.
    const crowded = next !== undefined && ms(next.begin) - end === ms(limits.gapSeconds);
    if (end - begin < ms(limits.minSeconds)) expect(crowded).toBe(true);
    const speed = cue.lines.join('\n').length / ((end - begin) / 1000);
    expect(cue.tooFast).toBe(speed > limits.maxCharsPerSecond + 1e-9);
    if (cue.tooFast) expect(crowded || end - begin === ms(limits.maxSeconds)).toBe(true);
  });
  return true;
}

describe('readable cues', () => {
  it('show no line of a script that nobody said; VTT keeps it as a NOTE where it stands', () => {
    const line = (text: string, begin: number, notSaid = false): Segment => {
      const words = text.split(' ').map((word, i) => ({
        word: ` ${word}`,
        time_begin: begin + i * 0.4,
        time_end: notSaid ? begin : begin + (i + 1) * 0.4,
        confidence: notSaid ? 0 : 0.9,
      }));
      return {
        words: notSaid ? words.map((w) => ({ ...w, time_begin: begin })) : words,
        transcription: ` ${text}`,
        language: 'en',
        time_begin: begin,
        time_end: notSaid ? begin : begin + words.length * 0.4,
        speaker: 'speaker_not_activated',
        channel: 'channel_0',
        ...(notSaid ? { not_said: true as const } : {}),
      };
    };
    const segments = [
      line('Good morning everyone.', 1),
      line('Nobody said this.', 2.2, true),
      line('Welcome to the talk.', 5),
    ];
    const cues = readableCues(segments);
    expect(cues.flatMap((c) => c.words)).toEqual(
      'Good morning everyone. Welcome to the talk.'.split(' '),
    );
    expect(cues.every((c) => c.end > c.begin)).toBe(true);
    expect(renderReadableVtt(cues, segments)).toBe(
      'WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.295\nGood morning everyone.\n\nNOTE Not said: Nobody said this.\n\n2\n00:00:05.000 --> 00:00:06.600\nWelcome to the talk.\n',
    );
  });

  it('keep every limit, every word in order, and times that never overlap', () => {
    fc.assert(
      fc.property(fc.array(segmentSpec(true), { maxLength: 6 }), limitsSpec, (specs, limits) => {
        const { segments, speakers } = build(specs, limits.maxCharsPerSecond);
        return checkLimits(segments, speakers, limits);
      }),
      { numRuns: 300 },
    );
  });

  it('never read too fast when the speech itself is slow enough', () => {
    fc.assert(
      fc.property(fc.array(segmentSpec(false), { maxLength: 6 }), limitsSpec, (specs, limits) => {
        const plain = { ...limits, speakerNames: false };
        const { segments, speakers } = build(specs, plain.maxCharsPerSecond);
        checkLimits(segments, speakers, plain);
        expect(readableCues(segments, plain).filter((c) => c.tooFast)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('breaks lines at punctuation rather than inside a phrase', () => {
    const text =
      'We left the harbour early, before the wind came up and the boats turned back home.';
    const words = text.split(' ').map((w, i) => ({
      word: ` ${w}`,
      time_begin: i * 0.5,
      time_end: i * 0.5 + 0.4,
      confidence: 1,
    }));
    const cues = readableCues([
      {
        words,
        transcription: ` ${text}`,
        language: 'en',
        time_begin: 0,
        time_end: 6,
        speaker: SPEAKER_NOT_ACTIVATED,
        channel: 'channel_0',
      },
    ]);
    expect(cues.map((c) => c.lines)).toEqual([
      ['We left the harbour early,'],
      ['before the wind came up', 'and the boats turned back home.'],
    ]);
  });

  it('keeps the last cue within the media, its reading time included', () => {
    // Words said up to 10.1 s of a 10.36-s file: reading time alone would keep the cue up
    // until 10.5 s, past the end of the media.
    const text = 'and then the long and winding road home';
    const words = text.split(' ').map((w, i) => ({
      word: ` ${w}`,
      time_begin: 9.3 + i * 0.1,
      time_end: 9.38 + i * 0.1,
      confidence: 1,
    }));
    const segment: Segment = {
      words,
      transcription: ` ${text}`,
      language: 'en',
      time_begin: 9.3,
      time_end: 10.1,
      speaker: SPEAKER_NOT_ACTIVATED,
      channel: 'channel_0',
    };
    expect(readableCues([segment]).at(-1)!.end).toBeGreaterThan(10.36);
    const cues = readableCues([segment], DEFAULT_CUE_LIMITS, 10.36);
    expect(cues.at(-1)!.end).toBe(10.36);
    for (const cue of cues) expect(cue.end).toBeLessThanOrEqual(10.36);
  });

  it('names the speaker when asked, and spreads typed text without word times', () => {
    const segment: Segment = {
      words: [],
      transcription: ' Hello there & welcome.',
      language: 'en',
      time_begin: 1,
      time_end: 3,
      speaker: 'Ana',
      channel: 'channel_0',
    };
    const cues = readableCues([segment], { ...DEFAULT_CUE_LIMITS, speakerNames: true });
    expect(cues.map((c) => c.lines)).toEqual([['Ana: Hello there & welcome.']]);
    expect(renderReadableSrt(cues)).toBe(
      '1\n00:00:01,000 --> 00:00:03,000\nAna: Hello there & welcome.\n',
    );
    expect(renderReadableVtt(cues)).toBe(
      'WEBVTT\n\n1\n00:00:01.000 --> 00:00:03.000\nAna: Hello there &amp; welcome.\n',
    );
    expect(renderReadableSrt([])).toBe('');
    expect(renderReadableVtt([])).toBe('WEBVTT\n');
  });
});
