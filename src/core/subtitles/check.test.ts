import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyFix, checkCues, checkSubtitles, type Finding } from './check';
import type { SubtitleCue } from './cue';
import { parseSubtitles } from './parse';
import { BBC, NETFLIX_EN, VERTICAL } from './profiles';
import { renderCues } from './write';

interface Spec {
  lines: string[];
  seconds: number;
  /** Seconds to the next cue's start, from this one's end (negative: an overlap). */
  after: number;
}

const clean = (): Spec => ({ lines: ['A clean line of text.'], seconds: 2, after: 1 });

/** Cues laid one after another, on the millisecond grid. */
function lay(specs: Spec[]): SubtitleCue[] {
  let t = 1000;
  return specs.map((spec) => {
    const begin = t;
    const end = begin + Math.round(spec.seconds * 1000);
    t = end + Math.round(spec.after * 1000);
    return { begin: begin / 1000, end: end / 1000, lines: spec.lines };
  });
}

/** One fault of each kind, each on its own cue among clean ones. */
const PLANTED: [Finding['kind'], Spec][] = [
  ['too-many-lines', { lines: ['One.', 'Two.', 'Three.'], seconds: 2, after: 1 }],
  ['line-too-long', { lines: ['x'.repeat(30) + ' ' + 'y'.repeat(19)], seconds: 4, after: 1 }],
  ['reading-speed', { lines: ['a'.repeat(19) + ' ' + 'b'.repeat(20)], seconds: 1.5, after: 1 }],
  ['too-short', { lines: ['Hi.'], seconds: 0.5, after: 1 }],
  ['too-long', { lines: ['Hello there.'], seconds: 8, after: 1 }],
  ['overlap', { lines: ['Over.'], seconds: 2, after: -0.5 }],
  ['gap', { lines: ['Close.'], seconds: 2, after: 0.05 }],
];

function plantedSpecs(): Spec[] {
  return [clean(), ...PLANTED.flatMap(([, spec]) => [spec, clean()])];
}

describe('subtitle check', () => {
  it('finds a cue at each planted fault, and nothing else', () => {
    const srt = renderCues(lay(plantedSpecs()), 'srt');
    const { cues, findings } = checkSubtitles(srt, NETFLIX_EN);
    expect(cues).toHaveLength(15);
    expect(findings.map((f) => [f.cue, f.kind])).toEqual(
      PLANTED.map(([kind], i) => [2 + 2 * i, kind]),
    );
    expect(findings.map((f) => f.message)).toEqual([
      'Cue 2 (00:00:04,000) has 3 lines; the profile allows 2.',
      'Cue 4 (00:00:10,000) has a line of 50 characters; the profile allows 42.',
      'Cue 6 (00:00:18,000) reads at 26.7 characters a second; the profile allows 20.',
      'Cue 8 (00:00:23,500) is on screen for 0.5 seconds; the profile asks for at least 0.833.',
      'Cue 10 (00:00:28,000) is on screen for 8 seconds; the profile allows at most 7.',
      'Cue 12 (00:00:40,000) overlaps the next cue by 0.5 seconds.',
      'Cue 14 (00:00:44,500) ends 0.05 seconds before the next cue; the profile asks for a gap of at least 0.083 seconds.',
    ]);
    expect(findings.map((f) => f.fix?.label)).toEqual([
      'Re-wrap the lines.',
      'Re-wrap the lines.',
      'Extend the end to 00:00:20,000.',
      'Extend the end to 00:00:24,333.',
      'End it at 00:00:35,000.',
      'End it at 00:00:41,417.',
      'End it at 00:00:46,467.',
    ]);
    expect(findings[2]).toMatchObject({ cue: 6, start: 18, end: 19.5 });
  });

  it('finds each planted fault alone, in SubRip and WebVTT alike', () => {
    for (const [kind, spec] of PLANTED) {
      for (const format of ['srt', 'vtt'] as const) {
        const text = renderCues(lay([clean(), spec, clean()]), format);
        const { findings } = checkSubtitles(text, NETFLIX_EN);
        expect(findings.map((f) => [f.cue, f.kind])).toEqual([[2, kind]]);
      }
    }
  });

  it('fixes each fault it offers a fix for, in one step', () => {
    const cues = lay(plantedSpecs());
    const findings = checkCues(cues, NETFLIX_EN);
    for (const finding of findings) {
      const fixed = applyFix(cues, finding, NETFLIX_EN);
      expect(checkCues(fixed, NETFLIX_EN).map((f) => f.kind)).toEqual(
        findings.filter((f) => f !== finding).map((f) => f.kind),
      );
    }
  });

  it('merges a short cue crowded by the next one', () => {
    const cues = lay([
      { lines: ['Hi.'], seconds: 0.4, after: 0.1 },
      { lines: ['How are you?'], seconds: 2, after: 1 },
    ]);
    const [finding] = checkCues(cues, NETFLIX_EN);
    expect(finding?.kind).toBe('too-short');
    expect(finding?.fix?.label).toBe('Merge it with the next cue.');
    expect(applyFix(cues, finding as Finding, NETFLIX_EN)).toEqual([
      { begin: 1, end: 3.5, lines: ['Hi. How are you?'] },
    ]);
  });

  it('offers no merge that would make a line too long or a cue too fast to read', () => {
    const long = 'Forty characters of words in one line..';
    const cues = lay([
      { lines: ['So,'], seconds: 0.3, after: 0.05 },
      { lines: [long, long], seconds: 2.2, after: 1 },
      clean(),
    ]);
    const findings = checkCues(cues, NETFLIX_EN);
    expect(findings.map((f) => [f.cue, f.kind])).toEqual([
      [1, 'too-short'],
      [1, 'gap'],
      [2, 'reading-speed'],
    ]);
    // Merged, the words take three lines (or a line of 84 characters) at over 20 a second.
    expect(findings[0]!.fix).toBeUndefined();
    const merged = applyFix(
      cues,
      { ...findings[0]!, fix: { action: 'merge', label: '' } },
      NETFLIX_EN,
    );
    expect(checkCues(merged, NETFLIX_EN).map((f) => [f.cue, f.kind])).toEqual([
      [1, 'too-many-lines'],
      [1, 'reading-speed'],
    ]);
  });

  it('offers only fixes after which there are fewer findings and none of a kind more', () => {
    const spec = fc.record({
      words: fc.array(fc.constantFrom('a', 'word', 'longer', 'sentence.', 'extraordinary'), {
        minLength: 1,
        maxLength: 16,
      }),
      lines: fc.integer({ min: 1, max: 3 }),
      seconds: fc.integer({ min: 100, max: 9000 }),
      after: fc.integer({ min: -500, max: 2000 }),
    });
    fc.assert(
      fc.property(fc.array(spec, { minLength: 1, maxLength: 8 }), (specs) => {
        const cues = lay(
          specs.map((s) => {
            const per = Math.ceil(s.words.length / s.lines);
            const lines = Array.from({ length: s.lines }, (_, k) =>
              s.words.slice(k * per, (k + 1) * per).join(' '),
            ).filter((l) => l !== '');
            return { lines, seconds: s.seconds / 1000, after: s.after / 1000 };
          }),
        );
        for (const profile of [NETFLIX_EN, VERTICAL]) {
          const findings = checkCues(cues, profile);
          const kinds = (list: readonly Finding[]) =>
            list.reduce(
              (m, f) => m.set(f.kind, (m.get(f.kind) ?? 0) + 1),
              new Map<string, number>(),
            );
          const before = kinds(findings);
          for (const finding of findings.filter((f) => f.fix)) {
            const after = checkCues(applyFix(cues, finding, profile), profile);
            expect(after.length).toBeLessThan(findings.length);
            for (const [kind, n] of kinds(after)) expect(n).toBeLessThanOrEqual(before.get(kind)!);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('moves the start when the next cue leaves no room to read', () => {
    const cues = lay([
      { lines: ['a'.repeat(19) + ' ' + 'b'.repeat(20)], seconds: 1.5, after: 0.1 },
      { lines: ['Next.'], seconds: 2, after: 1 },
    ]);
    const [finding] = checkCues(cues, NETFLIX_EN);
    expect(finding?.fix?.label).toBe('Start it at 00:00:00,500.');
    expect(checkCues(applyFix(cues, finding as Finding, NETFLIX_EN), NETFLIX_EN)).toEqual([]);
  });

  it('holds each profile to its own limits', () => {
    const cue = lay([{ lines: ['A line of exactly thirty chars'], seconds: 2, after: 1 }]);
    expect(cue[0]?.lines[0]).toHaveLength(30);
    expect(checkCues(cue, NETFLIX_EN)).toEqual([]);
    expect(checkCues(cue, BBC)).toEqual([]);
    expect(checkCues(cue, VERTICAL).map((f) => f.message)).toEqual([
      'Cue 1 (00:00:01,000) has a line of 30 characters; the profile allows 26.',
    ]);
  });

  it('reads WebVTT headers, notes, settings and markup', () => {
    const vtt = [
      'WEBVTT - a title',
      '',
      'NOTE a note --> not a cue',
      '',
      'intro',
      '00:01.500 --> 00:03.000 align:start',
      '<v Ana>Fish &amp; chips</v>',
      '<i>too</i>',
      '',
      '01:00:00.000 --> 01:00:02.250',
      'Late.',
      '',
    ].join('\r\n');
    expect(parseSubtitles(vtt)).toEqual([
      { begin: 1.5, end: 3, lines: ['Fish & chips', 'too'] },
      { begin: 3600, end: 3602.25, lines: ['Late.'] },
    ]);
  });
});
