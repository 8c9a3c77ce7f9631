import { describe, expect, it } from 'vitest';
import { addressWithoutSettings, settingsFromLink } from './settings-link';

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

describe('the address after a settings link is applied', () => {
  it('drops the settings and keeps any other parameter and the fragment', () => {
    expect(
      addressWithoutSettings(
        'http://127.0.0.1:4173/?models=%2Fhub%2F&model=team%2Fw&utm_source=x&translation=a%2Fb#top',
      ),
    ).toBe('/?utm_source=x#top');
    expect(addressWithoutSettings('https://murmur.example.org/?model=team/w')).toBe('/');
  });
});
