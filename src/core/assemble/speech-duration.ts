import type { GatedRegion } from '../audio/speech-gate';
import { spanDuration, type TimeSpan } from '../audio/speech-regions';
import type { Seconds } from '../units';

/** A channel as the speech stage found it: its regions and what made each worth recognising. */
export interface ChannelSpeech {
  index: number;
  speech: readonly GatedRegion[];
}

/** What of a transcript tells where speech is: each segment's channel and its words' times. */
export interface TimedSegment {
  channel: number;
  words: readonly { start: Seconds; end: Seconds }[];
}

/**
 * Seconds of speech a transcript holds (`total_speech_duration`), summed over its channels: on
 * each channel, the union of the stretches VAD heard a voice in and the stretches the words
 * recognised on it span. A loud stretch the speech gate passed to recognition without a voice
 * (speech over music, which VAD often misses) counts where recognition found words in it; one
 * where it found none does not.
 */
export function transcriptSpeechSeconds(
  channels: readonly ChannelSpeech[],
  segments: readonly TimedSegment[],
): Seconds {
  let total = 0;
  for (const channel of channels) {
    const spans: TimeSpan[] = channel.speech
      .filter((r) => r.heard !== 'level')
      .map((r) => ({ start: r.start, end: r.end }));
    for (const segment of segments) {
      if (segment.channel !== channel.index) continue;
      for (const w of segment.words)
        if (w.end > w.start) spans.push({ start: w.start, end: w.end });
    }
    total += spanDuration(union(spans));
  }
  return total;
}

/** Spans merged where they overlap or touch, in time order. */
function union(spans: TimeSpan[]): TimeSpan[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  const out: TimeSpan[] = [];
  for (const span of sorted) {
    const last = out.at(-1);
    if (last !== undefined && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else out.push({ ...span });
  }
  return out;
}
