/**
 * The speech stage. In: the decoded media (its pieces as they come) and whether to reduce
 * noise. Out: one growing channel per channel of the file, whose samples and settled speech
 * regions are published as they are found, so that recognition can start before the file is
 * all decoded; and, once everything is decoded and checked, the speech audio: silent channels
 * and channels that copy another found (spec section 8 billing), and the distinct channels
 * with speech, denoised when asked.
 */
import {
  channelBilling,
  silentChannelCount,
  similarChannelCount,
} from '../../../core/audio/billing';
import { envelopeFrameLength } from '../../../core/audio/channel-similarity';
import { peakDb } from '../../../core/audio/levels';
import { ChannelLevels } from './channel-levels';
import { loudRegions, unsettledLoudSeconds } from '../../../core/audio/loud-regions';
import { pcmPrefix, type Pcm } from '../../../core/audio/pcm';
import { providedFileMetadata } from '../../../core/audio/probe';
import { isSilentChannel } from '../../../core/audio/silence';
import { noiseFramesOutside } from '../../../core/audio/spectral-denoise';
import { gateRegions, type GatedRegion } from '../../../core/audio/speech-gate';
import {
  settledSpeechRegions,
  spanDuration,
  speechRegions,
} from '../../../core/audio/speech-regions';
import { SAMPLE_RATE, toSeconds } from '../../../core/units';
import type { StageContext } from '../../stage-context';
import type { SpeechSettings } from '../../stage-settings';
import type { DecodedMedia } from '../../streams/decoded-media';
import { channelVerdicts } from './channel-verdicts';
import { ChannelFeed, type GrowingChannel } from '../../streams/growing-channel';
import { denoise } from './noise-reduction';
import type { ChannelAudio, SpeechAudio } from '../../streams/speech-audio';
import { ChannelScoring } from './vad-scoring';
import { VAD_WINDOW } from '../../models/silero-vad';

export interface SpeechStageInput {
  media: DecodedMedia;
  noiseReduction: boolean;
  settings: SpeechSettings;
}

export interface FoundSpeech {
  /**
   * One per channel of the file, in order. Its speech is published as it is found (with noise
   * reduction, only once the channel is denoised); it completes once everything is checked,
   * with no speech if the channel turned out silent or a copy of an earlier one. It fails
   * with the stage.
   */
  channels: readonly GrowingChannel[];
  /** Everything the stage found, once all of the audio is decoded and checked. */
  done: Promise<SpeechAudio>;
}

export function run(input: SpeechStageInput, context: StageContext): FoundSpeech {
  const count = input.media.probe.channels;
  const feeds = Array.from(
    { length: count },
    (_, index) => new ChannelFeed(index, new Float32Array(0), input.media.probe.duration ?? 0),
  );
  const done = findSpeech(input, context, feeds);
  // Awaited by the pipeline; the channels carry the failure to recognition meanwhile.
  done.catch((thrown: unknown) => {
    for (const feed of feeds) feed.fail(thrown);
  });
  return { channels: feeds, done };
}

async function findSpeech(
  input: SpeechStageInput,
  context: StageContext,
  feeds: readonly ChannelFeed[],
): Promise<SpeechAudio> {
  const { signal, clock, ports } = context;
  const { media, noiseReduction } = input;
  const { settings } = input;
  const { regions, loudness } = settings;
  const detector = ports.speechDetector(signal ? { signal } : {});
  detector.catch(() => undefined);

  let channels: readonly Pcm[] = [];
  let published = 0;
  // Envelopes for comparing channels are measured as they grow, where there are several.
  const levels = new ChannelLevels(
    VAD_WINDOW,
    media.probe.channels > 1 ? envelopeFrameLength(SAMPLE_RATE) : null,
  );
  // VAD scores each piece while ffmpeg decodes the next; what is settled is published where
  // the detector runs beside recognition, unless the channel is to be denoised first (its
  // noise is measured over all of it).
  const scoring = new ChannelScoring(
    detector,
    clock,
    media.probe.duration,
    context.progress,
    async (scored, vad) => {
      if (noiseReduction || !vad.runsApart) return;
      const heard = toSeconds(scored);
      for (const feed of feeds) {
        const samples = pcmPrefix(channels[feed.index]!, scored);
        const voice = settledSpeechRegions(
          scoring.probabilities(feed.index),
          heard,
          false,
          regions,
        );
        const loud = loudRegions(levels.of(feed.index, samples), heard, loudness);
        // Loud stretches settle later than VAD's regions (their background looks ahead), and
        // how a stretch is judged depends on all of it (speech-gate.ts): what lies in one still
        // open waits for it.
        let settled = heard - unsettledLoudSeconds(loudness);
        for (const l of loud) if (l.end > settled) settled = Math.min(settled, l.start);
        feed.update(
          samples,
          gateRegions(voice, loud).filter((r) => r.end <= settled),
        );
      }
      // The first segment is what the user waits for. Once recognition has the first piece,
      // the next is scored when it has recognised what it could (or when nothing reads yet):
      // on two cores, VAD beside the first window's decoding slowed both, and the first
      // segment waited for the end of VAD (Chromium, 121-s recording: 4.1 s against 3.0 s).
      if (published++ === 0) await Promise.all(feeds.map((feed) => feed.idle()));
    },
    settings,
    signal,
  );
  let length = 0;
  for await (const piece of media.pieces) {
    channels = piece.channels;
    length = piece.length;
    await scoring.score(channels, length, piece.ended);
  }
  const duration = toSeconds(length);

  const checkStarted = clock();
  const analyses = channels.map((samples, index) => {
    const peak = peakDb(levels.peak(index, samples));
    if (isSilentChannel(peak, null)) return { index, peakDb: peak, speech: [], loudSeconds: 0 };
    const voice = speechRegions(scoring.probabilities(index), duration, regions);
    const loud = loudRegions(levels.of(index, samples), duration, loudness);
    const speech: GatedRegion[] = gateRegions(voice, loud);
    return { index, peakDb: peak, speech, loudSeconds: spanDuration(loud) };
  });
  const verdicts = channelVerdicts(channels, analyses, SAMPLE_RATE, (index) =>
    levels.envelopeLevels(index, channels[index]!),
  );
  const vadTime = scoring.seconds + clock() - checkStarted;

  const kept = verdicts.filter((v) => !v.silent && v.similarTo === null);
  const out: ChannelAudio[] = [];
  const denoiseStarted = clock();
  for (const v of kept) {
    const speech = analyses[v.index]!.speech;
    let samples = channels[v.index]!;
    if (noiseReduction) {
      context.progress(null, `Reducing noise${kept.length > 1 ? ` (channel ${v.index + 1})` : ''}`);
      signal?.throwIfAborted();
      // The noise is measured where VAD found no speech.
      samples = await denoise(
        samples,
        noiseFramesOutside(speech, samples.length, SAMPLE_RATE),
        () => media.scratch(),
      );
    }
    out.push({ index: v.index, samples, speech });
  }
  const noiseReductionTime = noiseReduction ? clock() - denoiseStarted : 0;
  for (const feed of feeds) {
    const channel = out.find((c) => c.index === feed.index);
    // A channel that does not go on leaves no samples behind for recognition to hold.
    feed.finish(channel?.samples ?? new Float32Array(0), channel?.speech ?? []);
  }
  return {
    file: providedFileMetadata(media.probe, duration, similarChannelCount(verdicts)),
    nbSilentChannels: silentChannelCount(verdicts),
    channels: out,
    billing: channelBilling(verdicts, duration),
    totalSpeechDuration: out.reduce((sum, c) => sum + spanDuration(voiceOf(c.speech)), 0),
    timings: {
      // `audio_conversion_time` covers reading, probing, decoding and noise reduction.
      audio_conversion_time: media.seconds() + noiseReductionTime,
      vad_time: vadTime,
      noise_reduction_time: noiseReductionTime,
    },
  };
}

/** The regions VAD heard as a voice. */
function voiceOf(regions: readonly GatedRegion[]): GatedRegion[] {
  return regions.filter((r) => r.heard !== 'level');
}
