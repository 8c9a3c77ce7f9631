/**
 * Live captions: what a live transcription tells the page while audio is still being recorded,
 * and the page's view of it. Lines that are settled never change; the provisional line of each
 * channel (the words heard since its last settled line) is replaced by every update.
 */

/** One line of live captions, in seconds from the start of the recording. */
export interface CaptionLine {
  /** Which channel of the recording (0: the microphone, 1: the tab when both are recorded). */
  channel: number;
  start: number;
  end: number;
  text: string;
}

/** What changed in a live transcription since the last update. */
export interface CaptionUpdate {
  /** Lines that will not change any more, in time order, following those sent before. */
  settled: CaptionLine[];
  /**
   * One entry per channel: the words heard since that channel's last settled line, or null when
   * there are none. Replaces the provisional line of the update before.
   */
  provisional: (CaptionLine | null)[];
  /** Seconds of audio received but not yet listened to (0 while it keeps up). */
  behindSeconds: number;
}

/** The page's view of a live transcription. */
export interface LiveCaptions {
  settled: CaptionLine[];
  provisional: (CaptionLine | null)[];
  behindSeconds: number;
}

export const NO_CAPTIONS: LiveCaptions = { settled: [], provisional: [], behindSeconds: 0 };

/** The captions after an update: settled lines appended, provisional ones replaced. */
export function applyCaptionUpdate(captions: LiveCaptions, update: CaptionUpdate): LiveCaptions {
  return {
    settled:
      update.settled.length > 0 ? [...captions.settled, ...update.settled] : captions.settled,
    provisional: update.provisional,
    behindSeconds: update.behindSeconds,
  };
}
