import type { MediaProbe } from '../../core/audio/probe';
import type { Pcm } from '../../core/audio/pcm';
import type { SpillFile } from '../ports';

/**
 * The channels decoded so far: the first `length` samples of each array are final. The
 * arrays may be replaced by longer ones as decoding goes on. The last piece has `ended` set
 * and its arrays cut to length. Long audio comes as 16-bit arrays (the media settings'
 * `compactFromSeconds`).
 */
export interface DecodedPiece {
  channels: readonly Pcm[];
  length: number;
  ended: boolean;
}

/**
 * What decoded audio a run holds in memory (`DecodedMedia.heldBytesPeak`): `bytes` now, told as
 * each decoded window is kept and as 0 once the samples are let go, and `peakBytes`, the most
 * held at once so far.
 */
export interface DecodedAudioHeld {
  bytes: number;
  peakBytes: number;
}

/** What the media stage hands the speech stage: the probe, and the audio as it is decoded. */
export interface DecodedMedia {
  probe: MediaProbe;
  /** Pieces of the decoded audio, each holding all of it so far; the last one has `ended`. */
  pieces: AsyncIterable<DecodedPiece>;
  /** Seconds spent reading, probing and decoding, without the time the reader of `pieces` took. */
  seconds(): number;
  /**
   * Another scratch file from the host, for audio made from this audio (a denoised channel),
   * closed with the rest on `release`; null where the host has none.
   */
  scratch(): Promise<SpillFile | null>;
  /**
   * Lets go of the scratch files long audio is kept in, if it has any: called once nothing
   * reads the samples any more (they cannot be read after).
   */
  release(): void;
  /**
   * The most bytes of decoded samples held in memory at once so far (the arrays of short
   * audio, or the blocks of a scratch file being filled and read back): the engine's own
   * account of what decoding cost, which does not grow with the length of long audio.
   */
  heldBytesPeak(): number;
}
