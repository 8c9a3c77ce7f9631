import { describe, expect, it } from 'vitest';
import {
  LANGUAGE_NAMES_SORTED,
  TRANSLATION_TARGET_NAMES_SORTED,
  WHISPER_LANGUAGES,
  languageCodeOf,
  translationTargetCodeOf,
} from './languages';

describe('languages', () => {
  it("lists Whisper's 99 languages, and 100 translation targets with wolof", () => {
    expect(Object.keys(WHISPER_LANGUAGES)).toHaveLength(99);
    expect(LANGUAGE_NAMES_SORTED).toHaveLength(99);
    expect(TRANSLATION_TARGET_NAMES_SORTED).toHaveLength(100);
    expect(TRANSLATION_TARGET_NAMES_SORTED).toContain('wolof');
    expect(LANGUAGE_NAMES_SORTED).not.toContain('wolof');
  });

  it('maps names to codes in any case, and aliases', () => {
    expect(languageCodeOf('English')).toBe('en');
    expect(languageCodeOf(' HAWAIIAN ')).toBe('haw');
    expect(languageCodeOf('castilian')).toBe('es');
    expect(languageCodeOf('wolof')).toBeNull();
    expect(languageCodeOf('en')).toBeNull();
    expect(translationTargetCodeOf('wolof')).toBe('wo');
  });
});
