import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DIARIZATION_SETTINGS,
  DEFAULT_MEDIA_SETTINGS,
  DEFAULT_STAGE_SETTINGS,
  stageSettings,
} from './stage-settings';

describe('stage settings', () => {
  it('are the defaults when nothing is changed', () => {
    expect(stageSettings()).toEqual(DEFAULT_STAGE_SETTINGS);
    expect(stageSettings({})).toEqual(DEFAULT_STAGE_SETTINGS);
  });

  it('change only the settings given, each stage keeping the rest of its own', () => {
    const settings = stageSettings({
      media: { compactFromSeconds: 0 },
      diarization: { embeddingBatch: 1 },
    });
    expect(settings.media).toEqual({ ...DEFAULT_MEDIA_SETTINGS, compactFromSeconds: 0 });
    expect(settings.diarization).toEqual({ ...DEFAULT_DIARIZATION_SETTINGS, embeddingBatch: 1 });
    expect(settings.speech).toBe(DEFAULT_STAGE_SETTINGS.speech);
    expect(settings.recognition).toBe(DEFAULT_STAGE_SETTINGS.recognition);
    expect(settings.live).toBe(DEFAULT_STAGE_SETTINGS.live);
  });

  it('keep a default where a setting is given as undefined, and leave the defaults as they are', () => {
    const settings = stageSettings({ media: { compactFromSeconds: undefined } });
    expect(settings.media.compactFromSeconds).toBe(600);
    stageSettings({ media: { compactFromSeconds: 1 } });
    expect(DEFAULT_MEDIA_SETTINGS.compactFromSeconds).toBe(600);
  });

  it('take a group of settings whole', () => {
    const fallback = { compressionRatio: 3, logProbability: -2, noSpeech: 0.5 };
    expect(stageSettings({ recognition: { fallback } }).recognition.fallback).toEqual(fallback);
  });
});
