import { DEFAULT_CUE_LIMITS, type CueLimits } from '../format/readable-cues';

export type ProfileId = 'netflix-en' | 'bbc' | 'vertical' | 'custom';

/**
 * Limits a subtitle file is held to. A profile is itself a set of readable-subtitle limits
 * (`CueLimits`), so `readableCues(segments, profile)` builds cues that keep it, and the check
 * (`checkCues`) reports each cue that does not:
 * - `maxLineChars`: characters a line may hold;
 * - `maxLines`: lines a cue may hold;
 * - `maxCharsPerSecond`: reading speed, line breaks counted as one character;
 * - `minSeconds`, `maxSeconds`: shortest and longest time a cue stays on screen;
 * - `gapSeconds`: shortest gap between a cue's end and the next cue's start (for guidelines
 *   that count frames, `gapFrames` at `frameRate`).
 */
export interface SubtitleProfile extends CueLimits {
  id: ProfileId;
  /** The name a user reads. */
  label: string;
  /** The gap in frames and the frame rate it was counted at, where the guideline counts frames. */
  gapFrames: number | null;
  frameRate: number | null;
}

const framesToSeconds = (frames: number, fps: number) => Math.round((frames / fps) * 1000) / 1000;

/**
 * Netflix, "English (USA) Timed Text Style Guide"
 * (https://partnerhelp.netflixstudios.com/hc/en-us/articles/217350977):
 * - "Character Limitation": 42 characters per line;
 * - "Line Treatment": 2 lines maximum;
 * - "Reading Speed": up to 20 characters per second for adult programs (17 for children's);
 * - "Duration": minimum 5/6 of a second (20 frames at 24 fps), maximum 7 seconds;
 * - Netflix "Timed Text Style Guide: General Requirements"
 *   (https://partnerhelp.netflixstudios.com/hc/en-us/articles/215758617), "Timing": a minimum
 *   of 2 frames between subtitles (counted here at 24 fps: 0.083 s).
 */
export const NETFLIX_EN: SubtitleProfile = {
  ...DEFAULT_CUE_LIMITS,
  id: 'netflix-en',
  label: 'Netflix (English)',
  maxLineChars: 42,
  maxLines: 2,
  maxCharsPerSecond: 20,
  minSeconds: 0.833,
  maxSeconds: 7,
  gapFrames: 2,
  frameRate: 24,
  gapSeconds: framesToSeconds(2, 24),
};

/**
 * BBC, "Subtitle Guidelines" (https://www.bbc.co.uk/accessibility/forproducts/guides/subtitles/):
 * - 3.1 "Line length": 68% of the width of a 16:9 picture, about 37 characters in the
 *   teletext-style fixed width the guideline also gives; 37 is used;
 * - 3.3 "Avoid 3 lines or more": 2 lines;
 * - 4.1 "Target minimum timing": 160 to 180 words a minute. At about 6 characters a word
 *   (5 letters and a space, the usual English average) that is 16 to 18 characters a second;
 *   the middle, 17, is used;
 * - 4 "Timing": no cue is to flash up too briefly to be read; 1 second (about three words at
 *   the 0.3 s a word the guideline's rate gives) is used as the shortest. The guideline sets no
 *   longest time; 7 seconds, the common broadcast ceiling, is used;
 * - 4.5 "Gaps": consecutive subtitles are separated so the eye sees the change; one frame at
 *   25 fps (0.04 s), the least the guideline allows, is used.
 */
export const BBC: SubtitleProfile = {
  ...DEFAULT_CUE_LIMITS,
  id: 'bbc',
  label: 'BBC',
  maxLineChars: 37,
  maxLines: 2,
  maxCharsPerSecond: 17,
  minSeconds: 1,
  maxSeconds: 7,
  gapFrames: 1,
  frameRate: 25,
  gapSeconds: framesToSeconds(1, 25),
};

/**
 * Vertical (9:16) video, as on phone feeds. No broadcaster publishes a guide for it; the values
 * follow from the landscape ones above:
 * - a 9:16 picture is 56% as wide as a 16:9 one of the same height, so the 42 characters of a
 *   Netflix line become about 24; 26 is used, as captions on phones run to the picture's edge
 *   more than the 68% the BBC keeps (3.1);
 * - 2 lines (as Netflix and the BBC), so cues cover little of a tall picture;
 * - 17 characters a second (the BBC's rate, and Netflix's for children's programs): short lines
 *   change more often, and feeds are watched on the move;
 * - 0.833 s shortest (Netflix), 5 s longest: a short cue seldom needs the 7 s of a long one;
 * - a gap of 2 frames at 30 fps (0.067 s), the usual frame rate of phone video (Netflix counts
 *   the gap in frames).
 */
export const VERTICAL: SubtitleProfile = {
  ...DEFAULT_CUE_LIMITS,
  id: 'vertical',
  label: 'Vertical video (9:16)',
  maxLineChars: 26,
  maxLines: 2,
  maxCharsPerSecond: 17,
  minSeconds: 0.833,
  maxSeconds: 5,
  gapFrames: 2,
  frameRate: 30,
  gapSeconds: framesToSeconds(2, 30),
};

/** The presets a user may name, by id. */
export const PRESET_PROFILES: readonly SubtitleProfile[] = [NETFLIX_EN, BBC, VERTICAL];

export const DEFAULT_PROFILE = NETFLIX_EN;

/** The preset named `id`; undefined for an unknown name (and for `custom`, the user's own). */
export function presetProfile(id: string): SubtitleProfile | undefined {
  return PRESET_PROFILES.find((p) => p.id === id);
}

/**
 * Whether limits are Murmur's own defaults (the speaker-name choice aside): what the app and the
 * CLI start with, which is no profile of anyone's making.
 */
export function isDefaultLimits(limits: CueLimits): boolean {
  return (Object.keys(DEFAULT_CUE_LIMITS) as (keyof CueLimits)[]).every(
    (key) => key === 'speakerNames' || limits[key] === DEFAULT_CUE_LIMITS[key],
  );
}

/** The name of limits that are no preset's: Murmur's defaults, or the user's own. */
export function customLabel(limits: CueLimits): string {
  return isDefaultLimits(limits) ? "Murmur's defaults" : 'Custom';
}

/** The user's own limits as a profile (the app's "Subtitle limits", the CLI's options). */
export function customProfile(limits: CueLimits): SubtitleProfile {
  return { ...limits, id: 'custom', label: customLabel(limits), gapFrames: null, frameRate: null };
}

/** Only the readable-subtitle limits of a profile. */
export function profileLimits(profile: SubtitleProfile): CueLimits {
  return {
    maxLineChars: profile.maxLineChars,
    maxLines: profile.maxLines,
    maxCharsPerSecond: profile.maxCharsPerSecond,
    minSeconds: profile.minSeconds,
    maxSeconds: profile.maxSeconds,
    gapSeconds: profile.gapSeconds,
    breakPauseSeconds: profile.breakPauseSeconds,
    speakerNames: profile.speakerNames,
  };
}
