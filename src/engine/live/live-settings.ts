import type { Seconds } from '../../core/units';

/** How a live transcription paces its work. */
export interface LiveSettings {
  /** New audio is scored by VAD once this many seconds of it have arrived. */
  readonly scoreEverySeconds: Seconds;
  /** Speech still going on is looked at (the provisional line) each time it grows this much. */
  readonly glanceEverySeconds: Seconds;
  /**
   * Speech without a pause that has run for this share of the recogniser's window is settled
   * window by window, as a file's long stretch is (24 s of Whisper's 30-s window).
   */
  readonly longShare: number;
  /**
   * In such a window of speech still going on, segments ending within this many seconds of its
   * end stay open: their last word may be cut off.
   */
  readonly openTailSeconds: Seconds;
  /**
   * More audio than this received and not yet listened to is being behind: provisional lines
   * are skipped until it has caught up, and the page is told how far behind it is.
   */
  readonly behindSeconds: Seconds;
  /**
   * Where the language is detected once (`automatic single language`), the first window with
   * at least this much speech decides it; shorter ones are detected for themselves only.
   */
  readonly languageSpeechSeconds: Seconds;
}

export const DEFAULT_LIVE_SETTINGS: Readonly<LiveSettings> = {
  scoreEverySeconds: 0.5,
  glanceEverySeconds: 1,
  longShare: 0.8,
  openTailSeconds: 1,
  behindSeconds: 2,
  languageSpeechSeconds: 2,
};
