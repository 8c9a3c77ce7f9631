import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SPEAKER_NOT_ACTIVATED, type Segment } from '../contract/response';
import { DEFAULT_CUE_LIMITS, readableCues } from '../format/readable-cues';
import { renderReadableSrt, renderReadableVtt } from '../format/readable-subtitles';
import { checkCues, checkSubtitles } from './check';
import { ms } from './cue';
import {
  BBC,
  customProfile,
  NETFLIX_EN,
  PRESET_PROFILES,
  presetProfile,
  profileLimits,
  VERTICAL,
  type SubtitleProfile,
} from './profiles';

const letters = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'.split(''));
const wordText = fc
  .tuple(
    fc.string({ unit: letters, minLength: 1, maxLength: 12 }),
    fc.constantFrom('', '', '', ',', '.', '?'),
  )
  .map(([w, p]) => w + p);

interface WordSpec {
  text: string;
  pause: number;
  duration: number;
}

const wordSpec = fc.record({
  text: wordText,
  pause: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 2.5, noNaN: true })),
  duration: fc.double({ min: 0, max: 1.2, noNaN: true }),
});

/**
 * One speaker's words laid one after another on the millisecond grid. `slow`: each word lasts
 * long enough to be read at the profile's speed and at least its shortest cue time, so that the
 * speech itself leaves every cue room.
 */
function segmentOf(specs: WordSpec[], profile: SubtitleProfile, slow: boolean): Segment {
  let t = 0;
  const words = specs.map((w) => {
    const begin = ms(t + w.pause) / 1000;
    const duration = slow
      ? Math.max(
          (w.text.length + 3) / profile.maxCharsPerSecond,
          profile.minSeconds + profile.gapSeconds + 0.01,
        )
      : w.duration;
    const end = ms(begin + duration) / 1000;
    t = end;
    return { word: ` ${w.text}`, time_begin: begin, time_end: end, confidence: 0.9 };
  });
  return {
    words,
    transcription: words.map((w) => w.word).join(''),
    language: 'en',
    time_begin: words[0]?.time_begin ?? 0,
    time_end: words.at(-1)?.time_end ?? 0,
    speaker: SPEAKER_NOT_ACTIVATED,
    channel: 'channel_0',
  };
}

const customSpec = fc
  .record({
    maxLineChars: fc.integer({ min: 16, max: 60 }),
    maxLines: fc.integer({ min: 1, max: 3 }),
    maxCharsPerSecond: fc.integer({ min: 12, max: 25 }),
    minSeconds: fc.double({ min: 0.5, max: 1.5, noNaN: true }),
    maxSeconds: fc.double({ min: 3, max: 10, noNaN: true }),
    gapSeconds: fc.double({ min: 0, max: 0.08, noNaN: true }),
  })
  .map((limits) => customProfile({ ...NETFLIX_EN, ...limits, speakerNames: false }));

const profiles = fc.oneof(fc.constantFrom(...PRESET_PROFILES), customSpec);

describe('subtitle profiles', () => {
  it('carry the guidelines’ values', () => {
    expect(PRESET_PROFILES.map((p) => p.id)).toEqual(['netflix-en', 'bbc', 'vertical']);
    expect(profileLimits(NETFLIX_EN)).toMatchObject({
      maxLineChars: 42,
      maxLines: 2,
      maxCharsPerSecond: 20,
      minSeconds: 0.833,
      maxSeconds: 7,
      gapSeconds: 0.083,
    });
    expect(profileLimits(BBC)).toMatchObject({ maxLineChars: 37, maxCharsPerSecond: 17 });
    expect(profileLimits(BBC).gapSeconds).toBe(0.04);
    expect(profileLimits(VERTICAL)).toMatchObject({ maxLineChars: 26, maxSeconds: 5 });
    expect(presetProfile('bbc')).toBe(BBC);
    expect(presetProfile('custom')).toBeUndefined();
  });

  it('keep their line, duration and gap limits in readable subtitles built with them', () => {
    fc.assert(
      fc.property(fc.array(wordSpec, { maxLength: 60 }), profiles, (specs, profile) => {
        const cues = readableCues([segmentOf(specs, profile, false)], profile);
        const findings = checkCues(cues, profile);
        const kinds = new Set(findings.map((f) => f.kind));
        for (const kind of ['too-many-lines', 'line-too-long', 'too-long', 'overlap', 'gap']) {
          expect(kinds).not.toContain(kind);
        }
        // Too fast or too short only where the next cue left no room, or (too fast) where the
        // text needs longer than a cue may stay up.
        for (const f of findings) {
          const next = cues[f.cue];
          const crowded =
            next !== undefined && ms(next.begin) - ms(f.end) === ms(profile.gapSeconds);
          const longest = ms(f.end) - ms(f.start) === ms(profile.maxSeconds);
          expect(crowded || (f.kind === 'reading-speed' && longest)).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('find nothing in Murmur’s own readable subtitles when the speech leaves room', () => {
    fc.assert(
      fc.property(fc.array(wordSpec, { maxLength: 40 }), profiles, (specs, profile) => {
        const cues = readableCues([segmentOf(specs, profile, true)], profile);
        expect(checkSubtitles(renderReadableSrt(cues), profile).findings).toEqual([]);
        expect(checkSubtitles(renderReadableVtt(cues), profile).findings).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});

describe('limits that are no preset', () => {
  it("are Murmur's defaults until a limit is changed, then Custom", () => {
    expect(customProfile(DEFAULT_CUE_LIMITS).label).toBe("Murmur's defaults");
    expect(customProfile({ ...DEFAULT_CUE_LIMITS, speakerNames: true }).label).toBe(
      "Murmur's defaults",
    );
    expect(customProfile({ ...DEFAULT_CUE_LIMITS, maxLineChars: 37 }).label).toBe('Custom');
  });
});
