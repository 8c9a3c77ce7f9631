import type { Pcm } from '../../core/audio/pcm';
import type { GatedRegion } from '../../core/audio/speech-gate';
import type { ChannelBilling, ProvidedFileMetadata } from '../../core/contract/response';
import type { Seconds } from '../../core/units';

/**
 * A stretch to recognise, in seconds from the file's start: speech found by voice activity
 * detection, or a loud stretch it rejected (`heard: 'level'`), which recognition judges.
 */
export type SpeechRegion = GatedRegion;

/** One channel that goes on to recognition: non-silent and not similar to an earlier one. */
export interface ChannelAudio {
  /** Index of the channel in the file (0-based): segments are labelled `channel_<index>`. */
  index: number;
  /** 16 kHz samples of this channel, floats or 16-bit (denoised when noise reduction is on). */
  samples: Pcm;
  speech: SpeechRegion[];
}

/** What the speech stage found once all of the audio is decoded and checked. */
export interface SpeechAudio {
  file: ProvidedFileMetadata;
  /** -1 for a single channel (spec 2.6). */
  nbSilentChannels: number;
  channels: ChannelAudio[];
  billing: ChannelBilling[];
  /** Seconds VAD heard as a voice over the transcribed channels (the response counts its words too). */
  totalSpeechDuration: Seconds;
  /**
   * `audio_conversion_time` covers probing, decoding and noise reduction (the spec has no
   * field of its own for the latter, which is also given apart as `noise_reduction_time`).
   */
  timings: { audio_conversion_time: Seconds; vad_time: Seconds; noise_reduction_time: Seconds };
}
