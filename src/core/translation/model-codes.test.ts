import { describe, expect, it } from 'vitest';
import { TRANSLATION_TARGETS, translationTargetCodeOf } from '../contract/languages';
import { TRANSLATION_CHOICES, translationChoiceOf } from '../model-catalog';
import { M2M100_CODES, NLLB_CODES } from './model-codes';
import { modelLanguageCode } from './model-language';

const NAMES = Object.values(TRANSLATION_TARGETS);

describe('translation model language codes', () => {
  it('has an entry for each of the 100 target names in every family', () => {
    expect(NAMES).toHaveLength(100);
    for (const name of NAMES) {
      const code = translationTargetCodeOf(name);
      expect(code, name).not.toBeNull();
      expect(Object.hasOwn(M2M100_CODES, code!), name).toBe(true);
      expect(Object.hasOwn(NLLB_CODES, code!), name).toBe(true);
    }
    expect(Object.keys(M2M100_CODES)).toHaveLength(100);
    expect(Object.keys(NLLB_CODES)).toHaveLength(100);
  });

  it("writes codes in each family's own form, wolof included", () => {
    for (const code of Object.values(M2M100_CODES)) {
      if (code !== null) expect(code).toMatch(/^[a-z]{2,3}$/);
    }
    for (const code of Object.values(NLLB_CODES)) {
      if (code !== null) expect(code).toMatch(/^[a-z]{3}_[A-Z][a-z]{3}$/);
    }
    const m2m = translationChoiceOf('Xenova/m2m100_418M');
    const nllb = translationChoiceOf('Xenova/nllb-200-distilled-600M');
    expect(modelLanguageCode(m2m, 'wo')).toBe('wo');
    expect(modelLanguageCode(nllb, 'wo')).toBe('wol_Latn');
    expect(modelLanguageCode(m2m, 'fr')).toBe('fr');
    expect(modelLanguageCode(nllb, 'fr')).toBe('fra_Latn');
    // Whisper's code for Javanese is `jw`; the models write `jv` and `jav_Latn`.
    expect(modelLanguageCode(m2m, 'jw')).toBe('jv');
    expect(modelLanguageCode(nllb, 'jw')).toBe('jav_Latn');
  });

  it('has no code where the model lacks the language', () => {
    const m2m = translationChoiceOf('Xenova/m2m100_418M');
    const nllb = translationChoiceOf('Xenova/nllb-200-distilled-600M');
    // M2M100's 100 languages and the service's 100 targets differ by 15 each way.
    const missing = NAMES.filter(
      (n) => modelLanguageCode(m2m, translationTargetCodeOf(n)!) === null,
    );
    expect(missing.sort()).toEqual(
      [
        'assamese',
        'basque',
        'faroese',
        'hawaiian',
        'latin',
        'maltese',
        'maori',
        'nynorsk',
        'sanskrit',
        'shona',
        'tajik',
        'tatar',
        'telugu',
        'tibetan',
        'turkmen',
      ].sort(),
    );
    expect(
      NAMES.filter((n) => modelLanguageCode(nllb, translationTargetCodeOf(n)!) === null).sort(),
    ).toEqual(['breton', 'hawaiian', 'latin']);
    expect(modelLanguageCode(m2m, 'xx')).toBeNull();
  });

  it('limits a model to the languages it was trained on where the catalogue says so', () => {
    const test = TRANSLATION_CHOICES.find((c) => c.id === 'murmur-test/m2m100-synth')!;
    expect(['en', 'fr', 'de', 'es'].map((c) => modelLanguageCode(test, c))).toEqual([
      'en',
      'fr',
      'de',
      'es',
    ]);
    expect(modelLanguageCode(test, 'it')).toBeNull();
    expect(modelLanguageCode(test, 'wo')).toBeNull();
  });

  it('guesses the family of ids outside the catalogue from their names', () => {
    expect(translationChoiceOf('someone/nllb-200-1.3B').family).toBe('nllb');
    expect(translationChoiceOf('someone/m2m100_1.2B').family).toBe('m2m100');
  });
});
