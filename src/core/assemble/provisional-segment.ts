import type { Seconds } from '../units';

/**
 * Text of a window still being decoded, before Whisper's fallback checks have accepted it:
 * shown while a file is transcribed, replaced by the window's segments, never in a response.
 */
export interface ProvisionalSegment {
  text: string;
  start: Seconds;
  end: Seconds;
  channel: number;
}
