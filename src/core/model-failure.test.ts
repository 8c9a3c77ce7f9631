import { describe, expect, it } from 'vitest';
import { missingPart, modelFailureKind, modelFailureMessage } from './model-failure';

describe('a model that does not load', () => {
  it('says the host lacks the model when its files are not found', () => {
    expect(missingPart("Cannot read properties of undefined (reading 'tokenizer_class')")).toMatch(
      /does not have this model/,
    );
    expect(missingPart('Could not locate file: "https://h/x/resolve/main/config.json".')).toMatch(
      /does not have this model/,
    );
  });

  it('says the host could not be reached when the fetch itself fails', () => {
    expect(missingPart('Failed to fetch')).toBe(
      'the host could not be reached (no network, a wrong address, or a host that does not let this site read its files)',
    );
    // Node's fetch says only this, for a refused connection as for an unknown host; a command
    // line has no site whose reading a host could refuse.
    expect(missingPart('fetch failed')).toBe(
      'the host could not be reached (no network, a wrong address, or nothing answering there)',
    );
  });

  it('says which file the runtime could not read, not its own words', () => {
    expect(
      missingPart(
        'Load model from /tmp/cache/org/model/onnx/encoder_model.onnx failed:Protobuf parsing failed.',
      ),
    ).toBe(
      'its file onnx/encoder_model.onnx could not be read: it arrived damaged (shorter than the model needs)',
    );
  });

  it('ends a reason that is a sentence of its own with one period', () => {
    expect(
      modelFailureMessage(
        'voice activity',
        'a/b',
        'http://h/',
        'Model file x could not be fetched (500).',
      ),
    ).toBe(
      'The voice activity model "a/b" could not be loaded from http://h/: Model file x could not be fetched (500). Check the model and the model host.',
    );
  });

  it('says a full storage is full', () => {
    expect(missingPart('QuotaExceededError: The quota has been exceeded.')).toMatch(/no room/);
  });

  it('keeps any other reason as it is', () => {
    expect(missingPart('Unsupported model type: bert')).toBe('Unsupported model type: bert');
  });

  it('names the model, the host and what was missing, and leaves where to change them to the host', () => {
    const message = modelFailureMessage(
      'recognition',
      'team/whisper-nope',
      'https://models.example.org/',
      "Cannot read properties of undefined (reading 'tokenizer_class')",
    );
    expect(message).toContain('recognition model "team/whisper-nope"');
    expect(message).toContain('https://models.example.org/');
    expect(message).toContain('does not have this model');
    expect(message).not.toContain('under Models');
    expect(message).not.toContain('tokenizer_class');
    expect(modelFailureKind(message)).toBe('recognition');
    expect(modelFailureKind(modelFailureMessage('speaker embedding', 'a/b', 'h', 'x'))).toBe(
      'speaker embedding',
    );
    expect(modelFailureKind('The recognition model "a/b" is fine.')).toBeNull();
  });
});
