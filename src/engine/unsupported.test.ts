import { describe, expect, it } from 'vitest';
import { ServiceError } from '../core/contract/errors';
import { TRANSLATION_TARGETS } from '../core/contract/languages';
import { fieldsFromRecord, parseRequest } from '../core/contract/parse-request';
import type { MediaFile, TranscriptionRequest } from '../core/contract/request';
import { DEFAULT_TRANSLATION_MODEL } from '../core/model-catalog';
import { refuseUnsupported } from './unsupported';

const wav: MediaFile = { name: 'talk.wav', size: 1234, type: 'audio/wav' };

function translateInto(name: string) {
  return parseRequest(
    fieldsFromRecord(
      { toggle_direct_translate: 'true', target_translation_language: name },
      { audio: wav },
    ),
    'audio',
  );
}

function refusal(request: TranscriptionRequest, model: string | null): ServiceError | null {
  try {
    refuseUnsupported(request, model);
    return null;
  } catch (thrown) {
    if (thrown instanceof ServiceError) return thrown;
    throw thrown;
  }
}

describe('translation targets', () => {
  const names = Object.values(TRANSLATION_TARGETS);

  it('accepts every one of the 100 target names, and refuses a name the model lacks as not supported', () => {
    expect(names).toHaveLength(100);
    let refused = 0;
    for (const name of names) {
      const result = translateInto(name);
      expect(result.ok, name).toBe(true);
      if (!result.ok) continue;
      const error = refusal(result.request, DEFAULT_TRANSLATION_MODEL);
      if (error === null) continue;
      refused++;
      expect(error.code, name).toBe('not_supported');
      expect(error.problems.map((p) => p.field)).toEqual(['target_translation_language']);
      expect(error.message).toContain(DEFAULT_TRANSLATION_MODEL);
      expect(error.problems[0]!.message).toContain(name);
    }
    // M2M100 lacks 15 of them (latin, tibetan, ...): see core/translation/model-codes.
    expect(refused).toBe(15);
  });

  it('refuses an unknown name as invalid, naming the field', () => {
    const result = translateInto('elvish');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => p.field)).toEqual(['target_translation_language']);
  });

  it('lets wolof through with M2M100 and NLLB-200, and not with the test model', () => {
    const result = translateInto('wolof');
    if (!result.ok) throw new Error('wolof should be valid');
    expect(refusal(result.request, 'Xenova/m2m100_418M')).toBeNull();
    expect(refusal(result.request, 'Xenova/nllb-200-distilled-600M')).toBeNull();
    const error = refusal(result.request, 'murmur-test/m2m100-synth');
    expect(error?.code).toBe('not_supported');
    expect(error?.message).toContain('murmur-test/m2m100-synth');
  });

  it('without a translation model, only english is a target', () => {
    const english = translateInto('english');
    const french = translateInto('french');
    if (!english.ok || !french.ok) throw new Error('both should be valid');
    expect(refusal(english.request, null)).toBeNull();
    expect(refusal(french.request, null)?.code).toBe('not_supported');
  });
});
