import { describe, expect, it } from 'vitest';
import { DEFAULT_TRANSLATION_MODEL } from '../../core/model-catalog';
import { parseCliArgs } from './cli-args';
import { transcribeHelp } from './help';
import { serveHelp } from './server/serve-help';
import { parseServeArgs } from './server/serve-args';

describe('choosing the translation model', () => {
  it('is M2M100 418M unless --translation-model names another, for transcribe and serve', () => {
    expect(parseCliArgs(['transcribe', 'a.wav']).translationModel).toBe(DEFAULT_TRANSLATION_MODEL);
    expect(DEFAULT_TRANSLATION_MODEL).toBe('Xenova/m2m100_418M');
    const cli = parseCliArgs([
      'transcribe',
      'a.wav',
      '--translation-model',
      'Xenova/nllb-200-distilled-600M',
      '--target_translation_language',
      'wolof',
    ]);
    expect(cli.translationModel).toBe('Xenova/nllb-200-distilled-600M');
    // The request's own fields stay request fields.
    expect(cli.fields).toEqual({ target_translation_language: 'wolof' });
    expect(parseServeArgs([]).translationModel).toBe(DEFAULT_TRANSLATION_MODEL);
    expect(parseServeArgs(['--translation-model=murmur-test/m2m100-synth']).translationModel).toBe(
      'murmur-test/m2m100-synth',
    );
    expect(transcribeHelp()).toContain('--translation-model ID');
    expect(serveHelp()).toContain('--translation-model ID');
  });
});
