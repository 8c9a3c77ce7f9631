/** The speaker counts of a request, through the CLI binary with the test models. */
import { describe, expect, it } from 'vitest';
import {
  describeFailure,
  modelArgs,
  runMurmur,
  STAGED_DIARIZATION_MODELS as MODELS,
} from '../../../tools/testing/diarization-cli';
import { sharedMedia } from '../../../tools/testing/ffmpeg-fixtures';

const RUN_TIMEOUT = 240_000;

describe('murmur transcribe: speaker counts', () => {
  const jfk = sharedMedia('speech/jfk.wav');

  it('refuses min greater than max with exit 2, naming diarization_min_speakers', async () => {
    const run = await runMurmur(jfk, [
      '--toggle_diarization',
      'true',
      '--diarization_min_speakers',
      '3',
      '--diarization_max_speakers',
      '2',
      ...modelArgs(MODELS),
    ]);
    expect(run.code).toBe(2);
    expect(run.error?.error).toBe('invalid_request');
    expect(run.error?.field_errors.map((p) => p.field)).toEqual(['diarization_min_speakers']);
  });

  it('refuses a number outside min..max with exit 2, naming diarization_num_speakers', async () => {
    const run = await runMurmur(jfk, [
      '--toggle_diarization',
      'true',
      '--diarization_num_speakers',
      '4',
      '--diarization_min_speakers',
      '1',
      '--diarization_max_speakers',
      '3',
      ...modelArgs(MODELS),
    ]);
    expect(run.code).toBe(2);
    expect(run.error?.field_errors.map((p) => p.field)).toEqual(['diarization_num_speakers']);
    expect(run.error?.message).toContain('diarization_num_speakers');
  });

  it(
    'transcribes with counts but diarization off, and says the counts were ignored',
    async () => {
      const run = await runMurmur(jfk, [
        '--diarization_num_speakers',
        '2',
        '--models',
        MODELS.models,
        '--model',
        MODELS.model,
      ]);
      expect(run.code, describeFailure(run)).toBe(0);
      expect(run.stderr).toMatch(/^murmur: note: .*diarization_.*toggle_diarization is off/m);
      const segments = run.response!.prediction_raw.transcription;
      expect(segments.length).toBeGreaterThan(0);
      for (const s of segments) expect(s.speaker).toBe('speaker_not_activated');
    },
    RUN_TIMEOUT,
  );
});
