import { describe, expect, it } from 'vitest';
import { settingsFromLink } from './settings-link';

describe('settings from a shared link', () => {
  it('takes the model host and the models', () => {
    expect(
      settingsFromLink(
        '?models=https://models.example.org/hub/&model=team/whisper-small&translation=team/m2m',
      ),
    ).toEqual({
      modelHost: 'https://models.example.org/hub/',
      whisperModel: 'team/whisper-small',
      translationModel: 'team/m2m',
    });
  });

  it('takes the speaker models', () => {
    expect(
      settingsFromLink(
        '?model=murmur-test/whisper-synth&segmentation=murmur-test/segmentation-synth&embedding=murmur-test/embedding-synth',
      ),
    ).toEqual({
      whisperModel: 'murmur-test/whisper-synth',
      segmentationModel: 'murmur-test/segmentation-synth',
      embeddingModel: 'murmur-test/embedding-synth',
    });
    expect(settingsFromLink('?segmentation=nope&embedding=a/b/c')).toEqual({});
  });

  it('takes a path on the same site as a host', () => {
    expect(settingsFromLink('?models=%2Fhub%2F')).toEqual({ modelHost: '/hub/' });
  });

  it('ignores what is not a host or a model id', () => {
    expect(
      settingsFromLink('?models=javascript:alert(1)&model=not%20an%20id&translation=a/b/c'),
    ).toEqual({});
    expect(settingsFromLink('')).toEqual({});
  });
});
