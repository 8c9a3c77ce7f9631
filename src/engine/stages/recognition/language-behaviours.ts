import type { RecognisedSegment } from '../../../core/assemble/response';
import type { LanguageBehaviour } from '../../../core/contract/request';
import type { StreamAudio } from '../../../core/decoding/speech-streams';
import { likeliest, type DetectedWindow, type EncodedWindow } from './language-detection';

/** How one decoding of a channel's streams goes: in which language, and what is posted. */
export interface StreamDecoding {
  /** The language of a stream about to start; `first` encodes its first window (kept). */
  languageOf(first: () => Promise<EncodedWindow>): Promise<string>;
  /** The first stream's first window, already encoded (for language detection). */
  ready?: EncodedWindow | null;
  /**
   * Whether the channel's first window may be cut short where the speech pauses
   * (`RecognitionSettings.firstWindowSeconds`): only where nothing was encoded ahead of it.
   */
  earlyStart?: boolean;
  /** Each segment as it is decoded. */
  post(segment: RecognisedSegment): void;
  /** The segments decoded but held back, not posted yet (shown as provisional meanwhile). */
  held?(): readonly RecognisedSegment[];
  /**
   * Called once, before the next window, when the channel's speech is all known; false stops
   * the decoding, which then returns null.
   */
  onComplete?(): Promise<boolean>;
}

/** What a language behaviour works with: one channel, its model, its decoding loop. */
export interface ChannelDecoding {
  /** Whether all of the channel's speech is known. */
  complete(): boolean;
  /**
   * Waits until the channel's first window of speech is settled (or all of the speech known)
   * and returns the streams' audio known then.
   */
  settledStart(): Promise<StreamAudio[]>;
  /** Encodes the first window of the first stream. */
  encodeStart(streams: readonly StreamAudio[]): Promise<EncodedWindow>;
  detect(window: EncodedWindow): Promise<Map<string, number>>;
  prominent(
    streams: readonly StreamAudio[],
    known?: DetectedWindow,
  ): Promise<{ language: string; first: EncodedWindow | null }>;
  decode(plan: StreamDecoding): Promise<RecognisedSegment[] | null>;
}

/** One of the spec's `language_behaviour`s. */
export interface LanguageStrategy {
  /** Whether each turn of speech (pauses of 1 s or more) is a stream of its own. */
  readonly perTurn: boolean;
  recognise(
    channel: ChannelDecoding,
    language: string | null,
    post: (segment: RecognisedSegment) => void,
  ): Promise<RecognisedSegment[]>;
}

/** Decoding that always runs to its end (nothing stops it). */
async function decodeAll(channel: ChannelDecoding, plan: StreamDecoding) {
  return (await channel.decode(plan)) ?? [];
}

/** `manual`: every stream in the language the request names. */
export const manualLanguage: LanguageStrategy = {
  perTurn: false,
  recognise: (channel, language, post) =>
    decodeAll(channel, { languageOf: async () => language ?? 'en', earlyStart: true, post }),
};

/**
 * `automatic multiple languages`: each turn of speech is a stream of its own, in the language
 * detected on its first window (which is then decoded without encoding it again).
 */
export const multipleLanguages: LanguageStrategy = {
  perTurn: true,
  recognise: (channel, _language, post) =>
    decodeAll(channel, {
      languageOf: async (first) => likeliest(await channel.detect(await first())),
      post,
    }),
};

/**
 * `automatic single language`: everything in the prominent language of the speech (read on up
 * to three windows spread over it). On a channel still growing, the speech is not all known:
 * decoding starts in the first window's language and holds its segments back; once the
 * speech is all found they are posted if that is the prominent language, or decoding starts
 * over in the prominent one.
 */
export const singleLanguage: LanguageStrategy = {
  perTurn: false,
  async recognise(channel, _language, post) {
    const streams = await channel.settledStart();
    if (streams.length === 0) return [];
    if (channel.complete()) {
      const prominent = await channel.prominent(streams);
      return decodeAll(channel, {
        languageOf: async () => prominent.language,
        ready: prominent.first,
        post,
      });
    }
    const window = await channel.encodeStart(streams);
    const guess: DetectedWindow = { window, probabilities: await channel.detect(window) };
    const guessed = likeliest(guess.probabilities);
    let held: RecognisedSegment[] | null = [];
    let instead: { language: string; first: EncodedWindow | null } | null = null;
    const segments = await channel.decode({
      languageOf: async () => guessed,
      ready: window,
      post: (segment) => (held ? held.push(segment) : post(segment)),
      held: () => held ?? [],
      async onComplete() {
        const prominent = await channel.prominent(await channel.settledStart(), guess);
        if (prominent.language !== guessed) {
          instead = prominent;
          return false;
        }
        for (const segment of held ?? []) post(segment);
        held = null;
        return true;
      },
    });
    if (segments !== null) return segments;
    // The guess was wrong: everything again, as if the language had been known at first.
    const { language, first } = instead!;
    return decodeAll(channel, { languageOf: async () => language, ready: first, post });
  },
};

export const LANGUAGE_BEHAVIOURS: Record<LanguageBehaviour, LanguageStrategy> = {
  manual: manualLanguage,
  'automatic multiple languages': multipleLanguages,
  'automatic single language': singleLanguage,
};
