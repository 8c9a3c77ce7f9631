import type { ChannelVerdict } from '../../../core/audio/billing';
import { areSimilar, compareChannels } from '../../../core/audio/channel-similarity';
import type { Pcm } from '../../../core/audio/pcm';
import { isSilentChannel } from '../../../core/audio/silence';
import type { GatedRegion } from '../../../core/audio/speech-gate';
import { spanDuration } from '../../../core/audio/speech-regions';

/** What speech detection found in one channel. */
export interface ChannelAnalysis {
  index: number;
  peakDb: number;
  /** VAD's speech and the loud stretches outside it. */
  speech: GatedRegion[];
  /** Seconds of the channel above its own background (`loud-regions.ts`). */
  loudSeconds: number;
}

/**
 * Which channels are silent and which copy an earlier one: each channel with speech is
 * compared with the earlier distinct channels, and the first it matches is the one it copies.
 * `envelopeOf` gives a channel's envelope levels where they were measured as it grew.
 */
export function channelVerdicts(
  channels: readonly Pcm[],
  analyses: readonly ChannelAnalysis[],
  sampleRate: number,
  envelopeOf: (index: number) => Float32Array | null = () => null,
): ChannelVerdict[] {
  const verdicts: ChannelVerdict[] = [];
  for (const a of analyses) {
    const voice = spanDuration(a.speech.filter((r) => r.heard !== 'level'));
    const silent = isSilentChannel(a.peakDb, voice, a.loudSeconds);
    let similarTo: number | null = null;
    if (!silent) {
      for (const earlier of verdicts) {
        if (earlier.silent || earlier.similarTo !== null) continue;
        const measured = { a: envelopeOf(earlier.index), b: envelopeOf(a.index) };
        const comparison = compareChannels(
          channels[earlier.index]!,
          channels[a.index]!,
          sampleRate,
          {},
          measured.a && measured.b ? { a: measured.a, b: measured.b } : undefined,
        );
        if (areSimilar(comparison)) {
          similarTo = earlier.index;
          break;
        }
      }
    }
    verdicts.push({ index: a.index, silent, similarTo });
  }
  return verdicts;
}
