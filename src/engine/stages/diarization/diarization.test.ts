/**
 * The diarization stage on models that read the speakers off the samples themselves: each
 * person's voice is a constant level (A 0.1, B 0.2, C 0.4; levels add where two speak at
 * once), the segmentation model numbers the people of each window in an order of its own (as a
 * real one does: local speakers mean nothing across windows), and the embedding model gives a
 * vector per level. What is tested is the stage: windows, embeddings of lone speech, clustering
 * under the counts, local speakers to clusters, and the turns put back together.
 */
import { describe, expect, it } from 'vitest';
import { POWERSET } from '../../../core/diarize/local-speakers';
import type { EnginePorts, LoadedSpeakerModels } from '../../ports';
import type { StageContext } from '../../stage-context';
import { DEFAULT_DIARIZATION_SETTINGS } from '../../stage-settings';
import { embeddingWindows, run } from './index';

const RATE = 16000;
const STEP = 270;
const LEVELS = { A: 0.1, B: 0.2, C: 0.4 } as const;
type Person = keyof typeof LEVELS;

/** Who speaks at a level (a sum of at most two voices). */
function peopleAt(level: number): Person[] {
  const people = Object.keys(LEVELS) as Person[];
  for (const p of people) if (Math.abs(level - LEVELS[p]) < 0.02) return [p];
  for (const p of people)
    for (const q of people)
      if (p < q && Math.abs(level - LEVELS[p] - LEVELS[q]) < 0.02) return [p, q];
  return [];
}

function fakeModels(): LoadedSpeakerModels & { embedded: number; calls: number[][] } {
  const models = {
    segmentationId: 'fake/segmentation',
    embeddingId: 'fake/embedding',
    sampleRate: RATE,
    windowSamples: 10 * RATE,
    frameStep: STEP,
    frameSpan: 990,
    clusteringThreshold: 0.3,
    voiceThresholds: { match: 0.3, near: 0.4 },
    embedded: 0,
    /** The lengths of the stretches of each call of the embedding model. */
    calls: [] as number[][],
    async segment(windows: readonly Float32Array[]) {
      return windows.map((w) => {
        const frames = Math.floor((w.length - 990) / STEP) + 1;
        // This window's numbering of people: by a hash of its samples.
        let hash = 0;
        for (let i = 0; i < w.length; i += 997) hash = (hash * 31 + Math.round(w[i]! * 10)) % 6;
        const order = [
          ['A', 'B', 'C'],
          ['B', 'C', 'A'],
          ['C', 'A', 'B'],
          ['A', 'C', 'B'],
          ['B', 'A', 'C'],
          ['C', 'B', 'A'],
        ][hash]!;
        const logits = new Float32Array(frames * 7).fill(-10);
        for (let f = 0; f < frames; f++) {
          const local = peopleAt(w[f * STEP + 495]!)
            .map((p) => order.indexOf(p))
            .sort();
          const c = POWERSET.findIndex((set) => set.join() === local.join());
          logits[f * 7 + c] = 0;
        }
        return { logits, frames, classes: 7 };
      });
    },
    async embed(stretches: readonly Float32Array[]) {
      models.calls.push(stretches.map((s) => s.length));
      models.embedded += stretches.length;
      return stretches.map((samples) => {
        const mean = samples.reduce((s, x) => s + x, 0) / samples.length;
        const [p] = peopleAt(mean);
        // A little of each stretch's own in every vector, as no two real embeddings are equal.
        return Float32Array.from(
          { length: 4 },
          (_, i) =>
            (['A', 'B', 'C'][i] === p ? 1 : 0.05) + 0.05 * Math.sin(samples.length * (i + 1)),
        );
      });
    },
    async dispose() {},
  };
  return models;
}

/** Samples of a talk: each turn a person's level from `start` to `end` seconds. */
function talk(seconds: number, turns: [Person, number, number][]): Float32Array {
  const out = new Float32Array(seconds * RATE);
  for (const [p, start, end] of turns) {
    for (let i = Math.round(start * RATE); i < Math.round(end * RATE); i++) out[i]! += LEVELS[p];
  }
  return out;
}

function context(): StageContext & { reports: [number | null, string][] } {
  let now = 0;
  const reports: [number | null, string][] = [];
  return {
    signal: undefined,
    clock: () => (now += 0.5),
    ports: {} as EnginePorts,
    progress: (fraction, detail) => reports.push([fraction, detail]),
    reports,
  };
}

const none = { num: null, min: null, max: null };

/** Seconds each found speaker speaks within [from, to). */
function speakingIn(
  turns: { speaker: string; start: number; end: number }[],
  from: number,
  to: number,
) {
  const out = new Map<string, number>();
  for (const t of turns) {
    const o = Math.min(to, t.end) - Math.max(from, t.start);
    if (o > 0) out.set(t.speaker, (out.get(t.speaker) ?? 0) + o);
  }
  return out;
}

const TURNS: [Person, number, number][] = [
  ['A', 0.5, 6],
  ['B', 6.5, 14],
  ['A', 13, 20], // two seconds of overlap with B
  ['C', 21, 27],
  ['B', 27.5, 33],
  ['A', 34, 39],
];

describe('diarization stage', () => {
  it('finds who speaks when across windows that number people differently', async () => {
    const samples = talk(40, TURNS);
    const ctx = context();
    const out = await run(
      {
        channels: [{ index: 0, samples, speech: [{ start: 0, end: 40 }] }],
        models: Promise.resolve(fakeModels()),
        counts: none,
        settings: DEFAULT_DIARIZATION_SETTINGS,
      },
      ctx,
    );
    expect(new Set(out.turns.map((t) => t.speaker)).size).toBe(3);
    // Each reference turn is matched by one found speaker, the same one for the same person.
    const who = new Map<Person, string>();
    for (const [p, start, end] of TURNS) {
      const found = speakingIn(out.turns, start + 0.3, end - 0.3);
      const [speaker, seconds] = [...found.entries()].sort((a, b) => b[1] - a[1])[0]!;
      expect(seconds).toBeGreaterThan(0.8 * (end - start - 0.6));
      if (who.has(p)) expect(who.get(p)).toBe(speaker);
      who.set(p, speaker);
    }
    expect(new Set(who.values()).size).toBe(3);
    // Both speak in the overlap.
    expect(speakingIn(out.turns, 13.2, 13.8).size).toBe(2);
    // Nobody in the pauses.
    expect(speakingIn(out.turns, 20.2, 20.8).size).toBe(0);
    expect(out.seconds).toBeGreaterThan(0);
    expect(ctx.reports.at(-1)![0]).toBe(1);
  });

  it('honours an exact count and the bounds', async () => {
    const samples = talk(40, TURNS);
    for (const [counts, expected] of [
      [{ ...none, num: 2 }, 2],
      [{ ...none, max: 2 }, 2],
      [{ ...none, min: 3 }, 3],
    ] as const) {
      const out = await run(
        {
          channels: [{ index: 0, samples, speech: [{ start: 0, end: 40 }] }],
          models: Promise.resolve(fakeModels()),
          counts,
          settings: DEFAULT_DIARIZATION_SETTINGS,
        },
        context(),
      );
      expect(new Set(out.turns.map((t) => t.speaker)).size).toBe(expected);
    }
  });

  it('keeps one person a channel apart, and skips channels and stretches without speech', async () => {
    const left = talk(30, [
      ['A', 1, 8],
      ['A', 20, 28],
    ]);
    const right = talk(30, [['A', 10, 18]]);
    const models = fakeModels();
    const out = await run(
      {
        channels: [
          {
            index: 0,
            samples: left,
            speech: [
              { start: 1, end: 8 },
              { start: 20, end: 28 },
            ],
          },
          { index: 1, samples: right, speech: [{ start: 10, end: 18 }] },
          { index: 2, samples: new Float32Array(30 * RATE), speech: [] },
        ],
        models: Promise.resolve(models),
        counts: none,
        settings: DEFAULT_DIARIZATION_SETTINGS,
      },
      context(),
    );
    const byChannel = (c: number) =>
      new Set(out.turns.filter((t) => t.channel === c).map((t) => t.speaker));
    expect(byChannel(0).size).toBe(1);
    expect(byChannel(1).size).toBe(1);
    expect(byChannel(2).size).toBe(0);
    expect([...byChannel(0)][0]).not.toBe([...byChannel(1)][0]);
  });
});

describe('embeddingWindows', () => {
  it('runs stretches of one length together, with the same turns as one at a time', async () => {
    const samples = talk(40, TURNS);
    const channels = [{ index: 0, samples, speech: [{ start: 0, end: 40 }] }];
    const single = fakeModels();
    const batched = fakeModels();
    const one = await run(
      {
        channels,
        models: Promise.resolve(single),
        counts: none,
        settings: { ...DEFAULT_DIARIZATION_SETTINGS, embeddingBatch: 1 },
      },
      context(),
    );
    const four = await run(
      {
        channels,
        models: Promise.resolve(batched),
        counts: none,
        settings: { ...DEFAULT_DIARIZATION_SETTINGS, embeddingBatch: 4 },
      },
      context(),
    );
    expect(four.turns).toEqual(one.turns);
    expect(batched.embedded).toBe(single.embedded);
    expect(single.calls.every((c) => c.length === 1)).toBe(true);
    expect(batched.calls.length).toBeLessThan(single.calls.length);
    for (const call of batched.calls) {
      expect(call.length).toBeLessThanOrEqual(4);
      expect(new Set(call).size).toBe(1);
    }
  });

  it('embeds the audio of two who are only heard together once', async () => {
    const speech = [{ start: 0, end: 30 }];
    const alone = fakeModels();
    const together = fakeModels();
    await run(
      {
        channels: [{ index: 0, samples: talk(30, [['A', 0, 30]]), speech }],
        models: Promise.resolve(alone),
        counts: none,
        settings: DEFAULT_DIARIZATION_SETTINGS,
      },
      context(),
    );
    const out = await run(
      {
        channels: [
          {
            index: 0,
            samples: talk(30, [
              ['A', 0, 30],
              ['B', 0, 30],
            ]),
            speech,
          },
        ],
        models: Promise.resolve(together),
        counts: none,
        settings: DEFAULT_DIARIZATION_SETTINGS,
      },
      context(),
    );
    // One stretch a window in both: the two speakers of a window share theirs.
    expect(alone.embedded).toBeGreaterThan(0);
    expect(together.embedded).toBe(alone.embedded);
    expect(out.turns.length).toBeGreaterThan(0);
  });

  it('gives embeddings to the ends of each run and to windows at most a window apart', () => {
    expect(embeddingWindows([0, 5, 10, 15, 20], 5, 10)).toEqual([true, false, true, false, true]);
    expect(embeddingWindows([0, 5, 10, 15], 5, 10)).toEqual([true, false, true, true]);
    expect(embeddingWindows([0, 5, 10, 50, 55], 5, 10)).toEqual([true, false, true, true, true]);
    expect(embeddingWindows([0, 20, 40], 5, 10)).toEqual([true, true, true]);
    // Windows a second apart: one in ten has embeddings, at most a window (10 s) apart.
    const starts = Array.from({ length: 25 }, (_, i) => i);
    const every = embeddingWindows(starts, 1, 10).flatMap((e, i) => (e ? [i] : []));
    expect(every).toEqual([0, 10, 20, 24]);
  });
});
