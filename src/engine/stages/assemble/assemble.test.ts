import { describe, expect, it } from 'vitest';
import type { RecognisedSegment } from '../../../core/assemble/response';
import type { EnginePorts } from '../../ports';
import type { StageContext } from '../../stage-context';
import type { SpeechAudio } from '../../streams/speech-audio';
import { run } from './index';

const context: StageContext = {
  signal: undefined,
  clock: () => 0,
  ports: {} as EnginePorts,
  progress: () => {},
};

/** A narrated clip over music: the speech gate passed it as loud, VAD heard no voice in it. */
const speech: SpeechAudio = {
  file: {
    nb_channels: 1,
    sample_rate: 16000,
    sample_width: 16,
    duration: 12,
    original_file_type: 'video',
    number_similar_channels: 0,
  },
  nbSilentChannels: -1,
  channels: [
    { index: 0, samples: new Float32Array(0), speech: [{ start: 0.5, end: 11, heard: 'level' }] },
  ],
  billing: [],
  totalSpeechDuration: 0,
  timings: { audio_conversion_time: 0, vad_time: 0, noise_reduction_time: 0 },
};

const heard: RecognisedSegment = {
  text: 'here we are',
  language: 'en',
  start: 1,
  end: 2.5,
  channel: 0,
  words: [
    { text: 'here', start: 1, end: 1.4, confidence: 0.9 },
    { text: 'we', start: 1.4, end: 1.7, confidence: 0.9 },
    { text: 'are', start: 1.9, end: 2.5, confidence: 0.9 },
  ],
};

describe('assemble stage', () => {
  it('counts in total_speech_duration the words recognition found where VAD heard no voice', () => {
    const response = run({ speech, segments: [heard], outputFormat: 'json', timings: {} }, context);
    expect(response.prediction_raw.transcription).toHaveLength(1);
    expect(response.prediction_raw.metadata.total_speech_duration).toBe(1.3);
  });

  it('counts the words as heard, not as translated and spread over their segment', () => {
    const translated: RecognisedSegment = {
      ...heard,
      text: 'nous voici',
      language: 'fr',
      source: { text: heard.text, language: 'en' },
      words: [
        { text: 'nous', start: 1, end: 1.75, confidence: 0.9 },
        { text: 'voici', start: 1.75, end: 2.5, confidence: 0.9 },
      ],
    };
    const response = run(
      { speech, segments: [translated], spoken: [heard], outputFormat: 'json', timings: {} },
      context,
    );
    expect(response.prediction_raw.metadata.total_speech_duration).toBe(1.3);
  });
});
