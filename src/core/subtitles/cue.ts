/** A cue of a subtitle file, as a user sees it: times in seconds, the lines shown. */
export interface SubtitleCue {
  /** Seconds, at millisecond resolution. */
  begin: number;
  end: number;
  lines: string[];
}

/** Seconds to whole milliseconds. */
export const ms = (seconds: number) => Math.round(seconds * 1000);
