import { clockTime } from '../../core/format/timecode';

/** A short clock reading for the UI: m:ss, or h:mm:ss past an hour (as chapter lists write). */
export const clock = clockTime;

/**
 * A length of time for the UI, to the nearest second: an 11.98-s file lasts 0:12, as the
 * browser's own player says. (`clock` truncates, as positions in a recording are read.)
 */
export function length(seconds: number): string {
  return clock(Math.round(seconds));
}
