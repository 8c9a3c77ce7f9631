/**
 * The diarization stage. In: the channels that go to recognition (samples and the speech found
 * in them), the speaker models and the request's speaker counts. Out: speaker turns over the
 * whole file (speaker ids stable across channels, never shared between channels unless a count
 * forces it) and the seconds spent.
 *
 * pyannote's pipeline, in the engine's own terms: the segmentation model slides over each
 * channel in overlapping windows (only where there is speech); each window's local speakers
 * get one embedding each, from the frames where they speak alone; the embeddings of the whole
 * file are clustered under the counts; each window's local speakers are given to clusters; the
 * windows' frames are put back together into overlap-aware turns.
 */
import { pcmFloats } from '../../../core/audio/pcm';
import type { SpeakerTurn } from '../../../core/assemble/speakers';
import { clusterEmbeddings, normalise, type SpeakerCounts } from '../../../core/diarize/clustering';
import {
  LOCAL_SPEAKERS,
  embeddingFrames,
  framesAudio,
  localActivity,
  speakerFrames,
} from '../../../core/diarize/local-speakers';
import {
  assignByNeighbours,
  assignLocalSpeakers,
  reconstructTurns,
  type WindowSpeakers,
} from '../../../core/diarize/window-speakers';
import { planWindows } from '../../../core/diarize/windows';
import { awaitModel } from '../../model-loading';
import type { LoadedSpeakerModels } from '../../ports';
import type { StageContext } from '../../stage-context';
import { DEFAULT_DIARIZATION_SETTINGS, type DiarizationSettings } from '../../stage-settings';
import type { ChannelAudio } from '../../streams/speech-audio';

export interface DiarizationStageInput {
  channels: readonly ChannelAudio[];
  models: Promise<LoadedSpeakerModels>;
  counts: SpeakerCounts;
  /** Called when the stage has to wait for the models (still downloading or loading). */
  onWaitForModel?: () => void;
  /** Seconds between window starts (default: half a window, each moment seen twice). */
  stepSeconds?: number;
  /** Most seconds between windows with embeddings of their own (default and most: a window). */
  embeddingEverySeconds?: number;
  /** The stage's settings (`DEFAULT_DIARIZATION_SETTINGS` when left out). */
  settings?: DiarizationSettings;
}

export async function run(
  input: DiarizationStageInput,
  context: StageContext,
): Promise<{ turns: SpeakerTurn[]; seconds: number }> {
  const models = await awaitModel(input.models, input.onWaitForModel);
  const settings = input.settings ?? DEFAULT_DIARIZATION_SETTINGS;
  const batch = settings.segmentationBatch;
  const started = context.clock();
  const rate = models.sampleRate;
  const plans = input.channels.map((channel) => ({
    channel,
    plan: planWindows({
      samples: channel.samples.length,
      sampleRate: rate,
      speech: channel.speech,
      windowSamples: models.windowSamples,
      frameStep: models.frameStep,
      stepSeconds: input.stepSeconds ?? models.windowSamples / rate / 2,
    }),
  }));
  const total = plans.reduce((n, p) => n + p.plan.starts.length, 0);
  let done = 0;
  const report = () =>
    context.progress(
      total === 0 ? 1 : done / total,
      `Finding speakers: ${done} of ${total} windows`,
    );
  report();

  const windows: (WindowSpeakers & { embedded: boolean })[] = [];
  const embeddings: Float32Array[] = [];
  const embeddingChannels: number[] = [];
  const frameSeconds = models.frameStep / rate;
  const minFrames = Math.ceil(settings.minEmbeddingSeconds / frameSeconds);
  const maxFrames = Math.floor(settings.maxEmbeddingSeconds / frameSeconds);
  for (const { channel, plan } of plans) {
    const embedded = embeddingWindows(
      plan.starts,
      plan.stepFrames * plan.frameStep,
      Math.round(
        input.embeddingEverySeconds !== undefined
          ? input.embeddingEverySeconds * rate
          : plan.windowSamples,
      ),
    );
    for (let b = 0; b < plan.starts.length; b += batch) {
      context.signal?.throwIfAborted();
      const starts = plan.starts.slice(b, b + batch);
      const audio = starts.map((start) => {
        const window = new Float32Array(plan.windowSamples);
        window.set(pcmFloats(channel.samples, start, start + plan.windowSamples));
        return window;
      });
      const scored = await models.segment(audio);
      for (let i = 0; i < starts.length; i++) {
        const start = starts[i]!;
        const { logits, frames: modelFrames, classes } = scored[i]!;
        const inside = Math.ceil((channel.samples.length - start) / plan.frameStep);
        const frames = Math.max(0, Math.min(modelFrames, inside));
        const active = localActivity(logits, frames, classes);
        const local: (Float32Array | null)[] = [];
        for (let s = 0; s < LOCAL_SPEAKERS; s++) {
          if (!embedded[b + i]) {
            local.push(null);
            continue;
          }
          const chosen = embeddingFrames(speakerFrames(active, frames, s), minFrames, maxFrames);
          if (chosen === null) {
            local.push(null);
            continue;
          }
          const samples = framesAudio(audio[i]!, chosen, plan.frameStep, models.frameSpan);
          const vector = normalise(await models.embed(samples));
          local.push(vector);
          embeddings.push(vector);
          embeddingChannels.push(channel.index);
        }
        windows.push({
          channel: channel.index,
          firstFrame: start / plan.frameStep,
          frames,
          active,
          embeddings: local,
          embedded: embedded[b + i]!,
        });
        done++;
      }
      report();
    }
  }

  const clusters = clusterEmbeddings(embeddings, embeddingChannels, {
    ...input.counts,
    threshold: models.clusteringThreshold,
  });
  const clusterOf = windows.map((w) =>
    w.embedded
      ? assignLocalSpeakers(
          w.embeddings,
          clusters.centroids,
          clusters.channels.map((set) => set.has(w.channel)),
        )
      : [],
  );
  windows.forEach((w, i) => {
    if (w.embedded) return;
    const overlaps = (j: number) =>
      windows[j]!.channel === w.channel &&
      Math.abs(windows[j]!.firstFrame - w.firstFrame) < w.frames;
    const near: number[] = [];
    for (let j = i - 1; j >= 0 && overlaps(j); j--) if (windows[j]!.embedded) near.push(j);
    for (let j = i + 1; j < windows.length && overlaps(j); j++)
      if (windows[j]!.embedded) near.push(j);
    const neighbours = near.map((j) => ({ window: windows[j]!, clusters: clusterOf[j]! }));
    clusterOf[i] = assignByNeighbours(w, neighbours, clusters.centroids.length);
  });
  const turns: SpeakerTurn[] = [];
  for (const { channel, plan } of plans) {
    const onChannel = windows.flatMap((w, i) => (w.channel === channel.index ? [i] : []));
    const found = reconstructTurns({
      channel: channel.index,
      totalFrames: Math.ceil(channel.samples.length / plan.frameStep),
      windows: onChannel.map((i) => windows[i]!),
      clusterOf: onChannel.map((i) => clusterOf[i]!),
      clusters: clusters.centroids.length,
      frameSeconds,
      centreSeconds: models.frameSpan / 2 / rate,
    });
    for (const t of found) {
      turns.push({
        speaker: `cluster_${t.cluster}`,
        channel: t.channel,
        start: t.start,
        end: t.end,
      });
    }
  }
  return { turns: turns.sort((a, b) => a.start - b.start), seconds: context.clock() - started };
}

/**
 * Which windows get embeddings of their own. Embeddings cost most of the stage (a ResNet34 for
 * each local speaker), so windows in between take their speakers from the embedded windows
 * that overlap them: in each run of windows that follow each other, the first, the last, and
 * one at least every `every` samples (at most a window apart, so that every frame of a window
 * in between is also seen by a window with embeddings).
 */
export function embeddingWindows(
  starts: readonly number[],
  step: number,
  every: number,
): boolean[] {
  const out = starts.map(() => false);
  let last = -Infinity;
  starts.forEach((start, i) => {
    const runStarts = i === 0 || start - starts[i - 1]! !== step;
    const runEnds = i === starts.length - 1 || starts[i + 1]! - start !== step;
    if (runStarts || runEnds || starts[i + 1]! - last > every) {
      out[i] = true;
      last = start;
    }
  });
  return out;
}
