import { TRANSLATION_TARGETS, type TranslationTargetCode } from '../contract/languages';
import type { TranslationChoice } from '../model-catalog';
import { FAMILY_CODES } from './model-codes';

function isTargetCode(code: string): code is TranslationTargetCode {
  return Object.hasOwn(TRANSLATION_TARGETS, code);
}

/**
 * The code a model writes a language with (`fr` for M2M100, `fra_Latn` for NLLB), given the
 * service's code of the language; null when the model cannot read or write it.
 */
export function modelLanguageCode(
  model: Pick<TranslationChoice, 'family' | 'languages'>,
  code: string,
): string | null {
  if (!isTargetCode(code)) return null;
  if (model.languages && !model.languages.includes(code)) return null;
  return FAMILY_CODES[model.family][code];
}
