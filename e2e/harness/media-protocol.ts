import type { ChannelBilling, ProvidedFileMetadata } from '../../src/core/contract/response';

/** What the harness page asks its worker to do. */
export interface HarnessRequest {
  id: number;
  file: File | null;
  url: string | null;
  endpoint: 'audio' | 'video';
  toggleNoiseReduction: boolean;
  windowSeconds: number | null;
}

/** A summary of the prepared audio (the samples themselves stay in the worker). */
export interface HarnessSummary {
  file: ProvidedFileMetadata;
  nbSilentChannels: number;
  billing: ChannelBilling[];
  totalSpeechDuration: number;
  timings: { audio_conversion_time: number; vad_time: number; noise_reduction_time: number };
  channels: { index: number; length: number; speechSeconds: number; rms: number; head: number[] }[];
  progress: string[];
  wallSeconds: number;
}

export type HarnessReply =
  | { id: number; ok: true; summary: HarnessSummary }
  | { id: number; ok: false; error: { name: string; code: string | null; message: string } };
