import { channelLabel, type ChannelBilling } from '../contract/response';
import type { Seconds } from '../units';
import { roundToMillisecond } from '../units';

/** What channel analysis decided about one channel of a file. */
export interface ChannelVerdict {
  /** 0-based channel index in the file. */
  index: number;
  /** No speech was found in it. */
  silent: boolean;
  /** Index of an earlier non-silent channel with the same content, or null. */
  similarTo: number | null;
}

/**
 * Billable seconds per channel under the spec's section 8 rules: (1) each non-silent,
 * non-similar channel is billed for the whole duration of the file, separately; (2) a silent
 * channel is not billed; (3) of channels with similar content only the first (channel 0 for
 * identical content) is billed.
 */
export function channelBilling(
  verdicts: readonly ChannelVerdict[],
  duration: Seconds,
): ChannelBilling[] {
  if (!(duration >= 0)) throw new RangeError(`duration must be >= 0, not ${duration}.`);
  const byIndex = new Map(verdicts.map((v) => [v.index, v]));
  return verdicts.map((v): ChannelBilling => {
    if (v.silent) {
      return {
        channel: channelLabel(v.index),
        billable_seconds: 0,
        reason: 'silent',
        similar_to: null,
      };
    }
    if (v.similarTo !== null) {
      const target = byIndex.get(v.similarTo);
      if (
        target === undefined ||
        target.silent ||
        target.similarTo !== null ||
        v.similarTo >= v.index
      ) {
        throw new RangeError(
          `Channel ${v.index} can only be similar to an earlier billed channel, not ${v.similarTo}.`,
        );
      }
      return {
        channel: channelLabel(v.index),
        billable_seconds: 0,
        reason: 'similar',
        similar_to: channelLabel(v.similarTo),
      };
    }
    return {
      channel: channelLabel(v.index),
      billable_seconds: roundToMillisecond(duration),
      reason: 'billed',
      similar_to: null,
    };
  });
}

/** Sum of billable seconds. */
export function billableSeconds(billing: readonly ChannelBilling[]): Seconds {
  return roundToMillisecond(billing.reduce((sum, b) => sum + b.billable_seconds, 0));
}

/** Spec 2.6: -1 for a single channel, otherwise how many channels hold no speech. */
export function silentChannelCount(verdicts: readonly ChannelVerdict[]): number {
  return verdicts.length === 1 ? -1 : verdicts.filter((v) => v.silent).length;
}

/** Spec 2.7: how many channels were judged to repeat the content of another channel. */
export function similarChannelCount(verdicts: readonly ChannelVerdict[]): number {
  return verdicts.filter((v) => !v.silent && v.similarTo !== null).length;
}
