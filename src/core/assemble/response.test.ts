import { describe, expect, it } from 'vitest';
import { assembleResponse, toResponseSegment, type AssembleInput } from './response';

const base: AssembleInput = {
  segments: [
    {
      text: 'second',
      language: 'fr',
      start: 3.2,
      end: 4.0004,
      channel: 1,
      words: [{ text: 'second', start: 3.2, end: 4, confidence: 0.8 }],
    },
    {
      text: ' first  part ',
      language: 'en',
      start: 0.5,
      end: 2,
      channel: 0,
      words: [
        { text: 'first', start: 0.5, end: 1.1, confidence: 0.9 },
        { text: ' part', start: 1.2, end: 2, confidence: 1.2 },
      ],
    },
  ],
  file: {
    nb_channels: 2,
    sample_rate: 44100,
    sample_width: 16,
    duration: 5,
    original_file_type: 'audio',
    number_similar_channels: 0,
  },
  nbSilentChannels: 0,
  totalSpeechDuration: 2.3,
  timings: { inference_time: 1.5 },
  outputFormat: 'srt',
};

describe('assembleResponse', () => {
  it('orders segments, adds leading spaces, labels channels and marks speakers off', () => {
    const { prediction_raw: raw, prediction } = assembleResponse(base);
    expect(raw.transcription.map((s) => s.transcription)).toEqual([' first part', ' second']);
    expect(raw.transcription.map((s) => s.channel)).toEqual(['channel_0', 'channel_1']);
    expect(raw.transcription.every((s) => s.speaker === 'speaker_not_activated')).toBe(true);
    expect(raw.transcription[0]?.words.map((w) => w.word)).toEqual([' first', ' part']);
    expect(raw.transcription[0]?.words[1]?.confidence).toBe(1);
    expect(raw.transcription[1]?.time_end).toBe(4);
    expect(prediction).toBe(
      '1\n00:00:00,500 --> 00:00:02,000\n first part\n\n2\n00:00:03,200 --> 00:00:04,000\n second\n',
    );
  });

  it('gives one speaker_mapping entry per segment', () => {
    const raw = assembleResponse(base).prediction_raw;
    expect(raw.speaker_mapping).toEqual([
      { speaker: 'speaker_not_activated', channel: 'channel_0', time_begin: 0.5, time_end: 2 },
      { speaker: 'speaker_not_activated', channel: 'channel_1', time_begin: 3.2, time_end: 4 },
    ]);
  });

  it("gives each segment its speaker's label, in the transcript and the mapping", () => {
    const raw = assembleResponse({
      ...base,
      segments: base.segments.map((s, i) => ({ ...s, speaker: `speaker_${1 - i}` })),
    }).prediction_raw;
    expect(raw.transcription.map((s) => s.speaker)).toEqual(['speaker_0', 'speaker_1']);
    expect(raw.speaker_mapping.map((s) => s.speaker)).toEqual(['speaker_0', 'speaker_1']);
  });

  it('reports -1 silent channels for mono files and fills every time field', () => {
    const meta = assembleResponse({
      ...base,
      file: { ...base.file, nb_channels: 1 },
      nbSilentChannels: 0,
    }).prediction_raw.metadata;
    expect(meta.nb_silent_channels).toBe(-1);
    expect(meta.inference_time).toBe(1.5);
    expect(meta.vad_time).toBe(0);
    expect(meta.total_speech_duration).toBe(2.3);
    const stereo = assembleResponse({ ...base, nbSilentChannels: 1 }).prediction_raw.metadata;
    expect(stereo.nb_silent_channels).toBe(1);
  });
});

describe('toResponseSegment', () => {
  it('adds the recognised text and language to a translated segment only', () => {
    const base = { start: 1, end: 2, channel: 0, words: [] };
    const translated = toResponseSegment(
      { ...base, text: 'nuit', language: 'fr', source: { text: 'night', language: 'en' } },
      'speaker_not_activated',
    );
    expect(translated).toMatchObject({
      transcription: ' nuit',
      language: 'fr',
      source_transcription: ' night',
      source_language: 'en',
    });
    const plain = toResponseSegment({ ...base, text: 'night', language: 'en' }, 'x');
    expect(plain).not.toHaveProperty('source_transcription');
    expect(plain).not.toHaveProperty('source_language');
  });
});
