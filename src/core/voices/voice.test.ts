import { describe, expect, it } from 'vitest';
import { rememberVoice, renameVoice, sameVoiceName, type SpeakerVoice } from './voice';

const at = new Date('2026-03-01T10:00:00.000Z');
const later = new Date('2026-03-08T10:00:00.000Z');
const speaker = (embedding: number[], seconds: number, model = 'emb'): SpeakerVoice => ({
  speaker: 'speaker_0',
  embedding: Float32Array.from(embedding),
  seconds,
  model,
});

describe('rememberVoice', () => {
  it('makes a voice of a new name, unit length, with its seconds and date', () => {
    const voices = rememberVoice([], '  Anna  Berg ', speaker([3, 4], 12.5), at);
    expect(voices).toEqual([
      {
        name: 'Anna Berg',
        model: 'emb',
        embedding: [0.6, 0.8],
        seconds: 12.5,
        recordings: 1,
        created: '2026-03-01T10:00:00.000Z',
        updated: '2026-03-01T10:00:00.000Z',
      },
    ]);
  });

  it('strengthens a stored name: a seconds-weighted mean, unit length again', () => {
    const first = rememberVoice([], 'Anna', speaker([1, 0], 30), at);
    const both = rememberVoice(first, 'anna', speaker([0, 1], 10), later);
    expect(both).toHaveLength(1);
    const v = both[0]!;
    // (30 * [1, 0] + 10 * [0, 1]) / |...| = [3, 1] / sqrt(10)
    expect(v.embedding[0]).toBeCloseTo(3 / Math.sqrt(10), 10);
    expect(v.embedding[1]).toBeCloseTo(1 / Math.sqrt(10), 10);
    expect(v).toMatchObject({
      name: 'Anna',
      seconds: 40,
      recordings: 2,
      created: '2026-03-01T10:00:00.000Z',
      updated: '2026-03-08T10:00:00.000Z',
    });
  });

  it('keeps the same name of another embedding model as a voice of its own', () => {
    const first = rememberVoice([], 'Anna', speaker([1, 0], 30, 'a'), at);
    const both = rememberVoice(first, 'Anna', speaker([0, 1], 10, 'b'), later);
    expect(both.map((v) => v.model)).toEqual(['a', 'b']);
  });
});

describe('renameVoice', () => {
  const voices = rememberVoice(
    rememberVoice([], 'Anna', speaker([1, 0], 5), at),
    'Ben',
    speaker([0, 1], 5),
    at,
  );

  it('renames one voice', () => {
    expect(renameVoice(voices, 1, ' Benedikt ')?.map((v) => v.name)).toEqual(['Anna', 'Benedikt']);
  });

  it('refuses a name another voice has, and an empty one', () => {
    expect(renameVoice(voices, 1, 'anna')).toBeNull();
    expect(renameVoice(voices, 1, '  ')).toBeNull();
  });
});

it('compares names without case or extra spaces', () => {
  expect(sameVoiceName('Anna  Berg', ' anna berg')).toBe(true);
  expect(sameVoiceName('Anna', 'Anne')).toBe(false);
});
