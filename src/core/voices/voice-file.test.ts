import { describe, expect, it } from 'vitest';
import { mergeVoices, readVoicesFile, voicesFileText, VoicesFileError } from './voice-file';
import type { Voice } from './voice';

const anna: Voice = {
  name: 'Anna',
  model: 'emb',
  embedding: [0.6, 0.8],
  seconds: 12.5,
  recordings: 1,
  created: '2026-03-01T10:00:00.000Z',
  updated: '2026-03-01T10:00:00.000Z',
};

const refusal = (text: string) => {
  try {
    readVoicesFile(text);
  } catch (thrown) {
    expect(thrown).toBeInstanceOf(VoicesFileError);
    return (thrown as Error).message;
  }
  throw new Error('read without refusal');
};
const file = (voices: unknown[], extra: Record<string, unknown> = {}) =>
  JSON.stringify({ format: 'murmur-voices', version: 1, voices, ...extra });

describe('the voices file', () => {
  it('reads back what it wrote, one embedding a line', () => {
    const text = voicesFileText([anna]);
    expect(readVoicesFile(text)).toEqual([anna]);
    expect(text).toContain('"embedding": [0.6, 0.8]');
    expect(text.startsWith('{\n  "format": "murmur-voices",\n  "version": 1,')).toBe(true);
  });

  it('makes a hand-edited embedding unit length again', () => {
    expect(readVoicesFile(file([{ ...anna, embedding: [3, 4] }]))[0]!.embedding).toEqual([
      0.6, 0.8,
    ]);
  });

  it('refuses what it cannot read, saying why in one sentence', () => {
    expect(refusal('WEBVTT')).toBe('is not a voices file: it is not JSON.');
    expect(refusal('{"voices": []}')).toBe(
      'is not a voices file: it does not say "format": "murmur-voices".',
    );
    expect(refusal(file([], { version: 2 }))).toBe(
      'is a voices file of version 2, newer than this Murmur reads (version 1): update Murmur.',
    );
    expect(refusal(file([], { version: '1' }))).toBe(
      'is not a voices file: it does not say its version.',
    );
    expect(refusal(file([], { voices: undefined }))).toBe(
      'is not a voices file: it has no list of voices.',
    );
    expect(refusal(file([{ ...anna, name: ' ' }]))).toBe('cannot be read: Voice 1 has no name.');
    expect(refusal(file([anna, { ...anna, name: 'Ben', embedding: [0, 0] }]))).toBe(
      'cannot be read: The voice “Ben” has no embedding (a list of numbers).',
    );
    expect(refusal(file([{ ...anna, seconds: -1 }]))).toBe(
      'cannot be read: The voice “Anna” does not say how many seconds it rests on.',
    );
    expect(refusal(file([{ ...anna, created: 'yesterday' }]))).toBe(
      'cannot be read: The voice “Anna” has no date it was created.',
    );
    expect(refusal(file([anna, { ...anna, name: 'ANNA' }]))).toBe(
      'cannot be read: two voices are called “Anna” for the same model.',
    );
  });

  it('imports over kept voices of the same name and model, keeping the others', () => {
    const ben = { ...anna, name: 'Ben' };
    const newer = { ...anna, seconds: 99 };
    expect(mergeVoices([anna, ben], [newer])).toEqual([ben, newer]);
  });

  it('cleans control characters out of names and refuses a name longer than a name', () => {
    const [read] = readVoicesFile(file([{ ...anna, name: 'An\u001b[31mna\nK' }]));
    expect(read!.name).toBe('An [31mna K');
    expect(refusal(file([{ ...anna, name: 'x'.repeat(101) }]))).toBe(
      'cannot be read: Voice 1 has a name longer than 100 characters.',
    );
  });

  it("refuses a voice whose embedding is not as long as its model's others", () => {
    const bob = { ...anna, name: 'Bob', embedding: [0.1, 0.2, 0.3] };
    expect(refusal(file([anna, bob]))).toBe(
      'cannot be read: the voice “Bob” has an embedding of 3 numbers, where “Anna” of the same model has 2.',
    );
    expect(readVoicesFile(file([anna, { ...bob, model: 'other' }]))).toHaveLength(2);
  });

  it('reads ten thousand voices, names found twice among them, and refuses more', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({ ...anna, name: `Person ${i}` }));
    expect(readVoicesFile(file(many))).toHaveLength(10_000);
    expect(refusal(file([...many.slice(0, 9_999), { ...anna, name: 'person  5 ' }]))).toBe(
      'cannot be read: two voices are called “Person 5” for the same model.',
    );
    expect(refusal(file([...many, anna]))).toBe(
      'holds 10,001 voices, more than the 10,000 a voices file may hold.',
    );
  });
});
