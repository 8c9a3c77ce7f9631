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
import {
  freeLocalSpeaker,
  speakerParts,
  splitLocalSpeaker,
  type LocalSpeakerParts,
} from '../../../core/diarize/speaker-parts';
import { awaitModel } from '../../model-loading';
import type { LoadedSpeakerModels } from '../../ports';
import type { StageContext } from '../../stage-context';
import type { DiarizationSettings } from '../../stage-settings';
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
  settings: DiarizationSettings;
}

/** A speaker the stage found, as the comparison with stored voices sees it. */
export interface FoundSpeaker {
  /** As in the turns (`cluster_0`, ...). */
  id: string;
  /** Unit length: the centroid of the embeddings the speaker's cluster holds. */
  embedding: Float32Array;
  /** Seconds of the speaker's turns. */
  seconds: number;
}

export interface Diarized {
  turns: SpeakerTurn[];
  /** Each speaker with turns, with the embedding model's id and voice distances. */
  speakers: FoundSpeaker[];
  embeddingModel: string;
  voiceThresholds: { match: number; near: number };
  seconds: number;
}

/** A stretch of a local speaker's audio waiting for the embedding model, and where it goes. */
interface PendingEmbedding {
  samples: Float32Array;
  /** Its places in the file's list of embeddings, and in its window's local speakers. */
  slots: number[];
  targets: [(Float32Array | null)[], number][];
}

/** Batches' worth of stretches that may wait before all are run, whatever their lengths. */
const PENDING_MOST = 4;
const EMPTY = new Float32Array(0);

export async function run(input: DiarizationStageInput, context: StageContext): Promise<Diarized> {
  const models = await awaitModel(input.models, input.onWaitForModel);
  const { settings } = input;
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

  const windows: (WindowSpeakers & { embedded: boolean; parts: LocalSpeakerParts[] })[] = [];
  // In the order the speakers were found (the clustering's order); filled in as batches run.
  const embeddings: Float32Array[] = [];
  const embeddingChannels: number[] = [];
  const frameSeconds = models.frameStep / rate;
  const minFrames = Math.ceil(settings.minEmbeddingSeconds / frameSeconds);
  const maxFrames = Math.floor(settings.maxEmbeddingSeconds / frameSeconds);
  const gapFrames = Math.ceil(settings.partGapSeconds / frameSeconds);
  const embeddingBatch = Math.max(1, settings.embeddingBatch);
  const pending: PendingEmbedding[] = [];
  // Runs the waiting stretches of one length in batches of `embeddingBatch`; with `all`, also
  // the last, smaller batch of each length. Stretches wait at most a few segmentation batches,
  // so that a long file never holds many of them.
  const embedPending = async (all: boolean) => {
    const byLength = new Map<number, PendingEmbedding[]>();
    for (const p of pending)
      byLength.set(p.samples.length, [...(byLength.get(p.samples.length) ?? []), p]);
    const run: PendingEmbedding[][] = [];
    for (const group of byLength.values()) {
      for (let k = 0; k < group.length; k += embeddingBatch) {
        const chunk = group.slice(k, k + embeddingBatch);
        if (all || chunk.length === embeddingBatch) run.push(chunk);
      }
    }
    for (const chunk of run) {
      context.signal?.throwIfAborted();
      const vectors = await models.embed(chunk.map((p) => p.samples));
      chunk.forEach((p, k) => {
        const vector = normalise(vectors[k]!);
        for (const slot of p.slots) embeddings[slot] = vector;
        for (const [local, speaker] of p.targets) local[speaker] = vector;
        pending.splice(pending.indexOf(p), 1);
      });
    }
  };
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
        const local: (Float32Array | null)[] = new Array<Float32Array | null>(LOCAL_SPEAKERS).fill(
          null,
        );
        // A window's local speakers whose embedding frames are the same (two who are never
        // heard alone, in the same frames) share one embedding: the same audio gives the same.
        const mine: { frames: string; embedding: PendingEmbedding }[] = [];
        const parts: LocalSpeakerParts[] = [];
        // Stretches are embedded apart only where a silent local speaker could take some.
        const splittable = embedded[b + i]! && freeLocalSpeaker(active, frames) >= 0;
        for (let s = 0; s < LOCAL_SPEAKERS && embedded[b + i]; s++) {
          const heard = speakerFrames(active, frames, s);
          const chosen = embeddingFrames(heard, minFrames, maxFrames);
          if (chosen === null) continue;
          const stretches = splittable ? speakerParts(heard, gapFrames) : [];
          if (stretches.length > 1) {
            const vectors: (Float32Array | null)[] = stretches.map(() => null);
            parts.push({ speaker: s, parts: stretches, embeddings: vectors });
            stretches.forEach((part, k) => {
              const own = embeddingFrames(part, minFrames, maxFrames);
              if (own === null) return;
              pending.push({
                samples: framesAudio(audio[i]!, own, plan.frameStep, models.frameSpan),
                slots: [],
                targets: [[vectors, k]],
              });
            });
          }
          const slot = embeddings.length;
          embeddings.push(EMPTY);
          embeddingChannels.push(channel.index);
          const key = chosen.join();
          const same = mine.find((m) => m.frames === key);
          if (same) {
            same.embedding.slots.push(slot);
            same.embedding.targets.push([local, s]);
            continue;
          }
          const embedding: PendingEmbedding = {
            samples: framesAudio(audio[i]!, chosen, plan.frameStep, models.frameSpan),
            slots: [slot],
            targets: [[local, s]],
          };
          mine.push({ frames: key, embedding });
          pending.push(embedding);
        }
        windows.push({
          channel: channel.index,
          firstFrame: start / plan.frameStep,
          frames,
          active,
          embeddings: local,
          embedded: embedded[b + i]!,
          parts,
        });
        done++;
      }
      await embedPending(pending.length >= PENDING_MOST * embeddingBatch);
      report();
    }
  }
  await embedPending(true);

  const clusters = clusterEmbeddings(embeddings, embeddingChannels, {
    ...input.counts,
    threshold: models.clusteringThreshold,
    minClusterSize: settings.minClusterEmbeddings,
  });
  for (const w of windows) {
    const allowed = clusters.channels.map((set) => set.has(w.channel));
    for (const local of w.parts) splitLocalSpeaker(w, local, clusters.centroids, allowed);
  }
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
  const spoken = new Map<string, number>();
  for (const t of turns) spoken.set(t.speaker, (spoken.get(t.speaker) ?? 0) + (t.end - t.start));
  return {
    turns: turns.sort((a, b) => a.start - b.start),
    speakers: clusters.centroids.flatMap((embedding, k) => {
      const seconds = spoken.get(`cluster_${k}`);
      return seconds === undefined ? [] : [{ id: `cluster_${k}`, embedding, seconds }];
    }),
    embeddingModel: models.embeddingId,
    voiceThresholds: models.voiceThresholds,
    seconds: context.clock() - started,
  };
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
