import { describe, expect, it } from 'vitest';
import type { RecognisedSegment } from '../../../core/assemble/response';
import type { Voice } from '../../../core/voices/voice';
import type { EnginePorts } from '../../ports';
import type { StageContext } from '../../stage-context';
import { run, type AttributionStageInput } from './index';

const context: StageContext = {
  signal: undefined,
  clock: () => 0,
  ports: {} as EnginePorts,
  progress: () => {},
};

const segment = (text: string, start: number, end: number): RecognisedSegment => ({
  text,
  language: 'en',
  start,
  end,
  channel: 0,
  words: [{ text, start, end, confidence: 1 }],
});

const voice = (name: string, embedding: number[]): Voice => ({
  name,
  model: 'emb',
  embedding,
  seconds: 20,
  recordings: 1,
  created: '2026-01-01T00:00:00.000Z',
  updated: '2026-01-01T00:00:00.000Z',
});

// cluster_1 speaks first, so it becomes speaker_0.
const input: AttributionStageInput = {
  segments: [segment('hello', 0, 2), segment('hi', 3, 5), segment('bye', 6, 8)],
  turns: [
    { speaker: 'cluster_1', channel: 0, start: 0, end: 2.5 },
    { speaker: 'cluster_0', channel: 0, start: 2.8, end: 5.5 },
    { speaker: 'cluster_2', channel: 0, start: 5.8, end: 8.2 },
  ],
  speakers: [
    { id: 'cluster_0', embedding: Float32Array.of(0, 1, 0), seconds: 2.7 },
    { id: 'cluster_1', embedding: Float32Array.of(1, 0, 0), seconds: 2.5 },
    { id: 'cluster_2', embedding: Float32Array.of(0, 0, 1), seconds: 2.4 },
  ],
  embeddingModel: 'emb',
  voices: [],
  voiceThresholds: { match: 0.2, near: 0.4 },
};

describe('the attribution stage', () => {
  it('hands each speaker on under its label, with its embedding and model', () => {
    const out = run(input, context);
    expect(out.segments.map((s) => s.speaker)).toEqual(['speaker_0', 'speaker_1', 'speaker_2']);
    expect(out.speakers.map((s) => [s.speaker, [...s.embedding], s.seconds, s.model])).toEqual([
      ['speaker_0', [1, 0, 0], 2.5, 'emb'],
      ['speaker_1', [0, 1, 0], 2.7, 'emb'],
      ['speaker_2', [0, 0, 1], 2.4, 'emb'],
    ]);
    expect(out.recognitions).toEqual([]);
  });

  it('names a speaker a stored voice recognises, in segments and turns, and only reports a near miss', () => {
    const near = [Math.sqrt(1 - 0.7 * 0.7), 0.7, 0]; // distance 0.3 from speaker_1
    const out = run(
      { ...input, voices: [voice('Anna', [0.99, 0.141, 0]), voice('Ben', near)] },
      context,
    );
    expect(out.segments.map((s) => s.speaker)).toEqual(['Anna', 'speaker_1', 'speaker_2']);
    expect(out.turns.map((t) => t.speaker)).toEqual(['Anna', 'speaker_1', 'speaker_2']);
    expect(out.recognitions.map((r) => [r.speaker, r.name, r.sure])).toEqual([
      ['speaker_0', 'Anna', true],
      ['speaker_1', 'Ben', false],
    ]);
    // The speakers stay under their labels, for a host that remembers or offers names.
    expect(out.speakers.map((s) => s.speaker)).toEqual(['speaker_0', 'speaker_1', 'speaker_2']);
  });
});
