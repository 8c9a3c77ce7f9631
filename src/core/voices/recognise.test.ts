import { describe, expect, it } from 'vitest';
import {
  leastCostAssignment,
  recognisedNames,
  recogniseSpeakers,
  voiceOfOtherLength,
} from './recognise';
import type { SpeakerVoice, Voice } from './voice';

const unit = (...values: number[]) => {
  const n = Math.hypot(...values);
  return values.map((v) => v / n);
};
const voice = (name: string, embedding: number[], model = 'emb'): Voice => ({
  name,
  model,
  embedding: unit(...embedding),
  seconds: 30,
  recordings: 1,
  created: '2026-01-01T00:00:00.000Z',
  updated: '2026-01-01T00:00:00.000Z',
});
const speaker = (label: string, embedding: number[], model = 'emb'): SpeakerVoice => ({
  speaker: label,
  embedding: Float32Array.from(unit(...embedding)),
  seconds: 20,
  model,
});
const thresholds = { match: 0.2, near: 0.4 };

describe('leastCostAssignment', () => {
  it('finds the pairing whose costs add up least, not the greedy one', () => {
    // Greedy takes row 0 -> column 0 (cost 1) and then pays 10 for row 1.
    expect(
      leastCostAssignment([
        [1, 2],
        [1, 10],
      ]),
    ).toEqual([1, 0]);
  });

  it('gives every row its own column', () => {
    const cost = [
      [4, 1, 3],
      [2, 0, 5],
      [3, 2, 2],
    ];
    const result = leastCostAssignment(cost);
    expect(new Set(result).size).toBe(3);
    expect(result.reduce((sum, c, r) => sum + cost[r]![c]!, 0)).toBe(5);
  });
});

describe('recogniseSpeakers', () => {
  it('names a speaker close to a voice and leaves a stranger unnamed', () => {
    const voices = [voice('Anna', [1, 0, 0]), voice('Ben', [0, 1, 0])];
    const found = recogniseSpeakers(
      [speaker('speaker_0', [0.02, 1, 0]), speaker('speaker_1', [0, 0, 1])],
      voices,
      thresholds,
    );
    expect(found).toEqual([
      { speaker: 'speaker_0', name: 'Ben', distance: expect.closeTo(0.0002, 3), sure: true },
    ]);
    expect(recognisedNames(found)).toEqual({ speaker_0: 'Ben' });
  });

  it('offers a near miss without giving it', () => {
    // cos(angle) = 0.7 -> distance 0.3: past `match` (0.2), within `near` (0.4).
    const found = recogniseSpeakers(
      [speaker('speaker_0', [0.7, Math.sqrt(1 - 0.49), 0])],
      [voice('Anna', [1, 0, 0])],
      thresholds,
    );
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ name: 'Anna', sure: false });
    expect(found[0]!.distance).toBeCloseTo(0.3, 5);
    expect(recognisedNames(found)).toEqual({});
  });

  it('gives one voice to at most one speaker: the best assignment, not the first come', () => {
    // speaker_0 is a little closer to Anna than to Ben; speaker_1 is Anna's and nobody else's.
    // First come would give Anna to speaker_0 and leave speaker_1 unnamed.
    const voices = [voice('Anna', [1, 0, 0]), voice('Ben', [0.8, 0.6, 0])];
    const found = recogniseSpeakers(
      [speaker('speaker_0', [0.95, 0.31, 0]), speaker('speaker_1', [1, 0, 0.05])],
      voices,
      { match: 0.1, near: 0.2 },
    );
    expect(Object.fromEntries(found.map((f) => [f.speaker, f.name]))).toEqual({
      speaker_0: 'Ben',
      speaker_1: 'Anna',
    });
    expect(new Set(found.map((f) => f.name)).size).toBe(found.length);
  });

  it('compares only voices of the speakers’ own embedding model', () => {
    const found = recogniseSpeakers(
      [speaker('speaker_0', [1, 0, 0], 'other-model')],
      [voice('Anna', [1, 0, 0], 'emb')],
      thresholds,
    );
    expect(found).toEqual([]);
  });

  it('names nobody when no voice is stored', () => {
    expect(recogniseSpeakers([speaker('speaker_0', [1, 0])], [], thresholds)).toEqual([]);
  });
});

describe('a voice made with another embedding size', () => {
  it('is named, with both sizes, rather than never matching', () => {
    const speaker = {
      speaker: 'speaker_0',
      embedding: new Float32Array([0.6, 0.8, 0, 0]),
      seconds: 5,
      model: 'emb',
    };
    const odd = {
      name: 'Odd',
      model: 'emb',
      embedding: [1, 0, 0],
      seconds: 3,
      recordings: 1,
      created: '2026-03-01T10:00:00.000Z',
      updated: '2026-03-01T10:00:00.000Z',
    };
    expect(voiceOfOtherLength([speaker], [odd])).toBe(
      'The voice “Odd” has an embedding of 3 numbers, where the speaker model "emb" makes 4: it cannot be compared. Remember it again from a recording.',
    );
    expect(voiceOfOtherLength([speaker], [{ ...odd, model: 'other' }])).toBeNull();
    expect(voiceOfOtherLength([speaker], [{ ...odd, embedding: [1, 0, 0, 0] }])).toBeNull();
  });
});
