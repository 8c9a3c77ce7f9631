import type { ChannelBilling, ProvidedFileMetadata } from '../../src/core/contract/response';
import type { Envelope, ErrorReply } from '../../src/worker/envelope';

/** What the harness page asks its worker to do: the media and speech stages on a file or URL. */
export type HarnessRequest = Envelope<
  'prepare',
  {
    file: File | null;
    url: string | null;
    endpoint: 'audio' | 'video';
    toggleNoiseReduction: boolean;
    windowSeconds: number | null;
    /** Audio this long or longer is kept 16-bit (null: the media settings' default). */
    compactFromSeconds: number | null;
    /** False: compact audio stays in memory rather than in the origin-private file system. */
    spill: boolean;
  }
>;

/** A summary of the prepared audio (the samples themselves stay in the worker). */
export interface HarnessSummary {
  file: ProvidedFileMetadata;
  nbSilentChannels: number;
  billing: ChannelBilling[];
  totalSpeechDuration: number;
  timings: { audio_conversion_time: number; vad_time: number; noise_reduction_time: number };
  channels: {
    index: number;
    length: number;
    speechSeconds: number;
    rms: number;
    head: number[];
    /** Kept in the origin-private file system rather than memory. */
    stored: boolean;
  }[];
  progress: string[];
  wallSeconds: number;
}

export type HarnessReply = Envelope<'result', HarnessSummary> | ErrorReply;
