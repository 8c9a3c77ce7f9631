/**
 * Numbers said in words, per language, for script alignment: a script may write "3" where
 * the speaker said "three" (and the recogniser would write either). Each language's words are
 * a module of n2words loaded only when a script holds a number, so that a transcription without
 * one fetches nothing more.
 */
import type { NumberWords } from '../../../core/alignment/spoken-forms';

interface Cardinals {
  toCardinal: (value: number) => string;
}

/** Whisper's language codes, to the n2words module of each language it has. */
const LOADERS: Record<string, () => Promise<Cardinals>> = {
  en: () => import('n2words/en-US'),
  fr: () => import('n2words/fr-FR'),
  de: () => import('n2words/de-DE'),
  es: () => import('n2words/es-ES'),
  it: () => import('n2words/it-IT'),
  pt: () => import('n2words/pt-PT'),
  nl: () => import('n2words/nl-NL'),
  ru: () => import('n2words/ru-RU'),
  pl: () => import('n2words/pl-PL'),
  tr: () => import('n2words/tr-TR'),
  sv: () => import('n2words/sv-SE'),
  da: () => import('n2words/da-DK'),
  no: () => import('n2words/nb-NO'),
  nn: () => import('n2words/nb-NO'),
  fi: () => import('n2words/fi-FI'),
  cs: () => import('n2words/cs-CZ'),
  hu: () => import('n2words/hu-HU'),
  ro: () => import('n2words/ro-RO'),
  el: () => import('n2words/el-GR'),
  uk: () => import('n2words/uk-UA'),
  ar: () => import('n2words/ar-SA'),
  he: () => import('n2words/he-IL'),
  fa: () => import('n2words/fa-IR'),
  hi: () => import('n2words/hi-IN'),
  id: () => import('n2words/id-ID'),
  ms: () => import('n2words/ms-MY'),
  vi: () => import('n2words/vi-VN'),
  ja: () => import('n2words/ja-JP'),
  ko: () => import('n2words/ko-KR'),
  zh: () => import('n2words/zh-Hans-CN'),
  th: () => import('n2words/th-TH'),
  hr: () => import('n2words/hr-HR'),
  sr: () => import('n2words/sr-Cyrl-RS'),
  lt: () => import('n2words/lt-LT'),
  lv: () => import('n2words/lv-LV'),
  bn: () => import('n2words/bn-BD'),
  ta: () => import('n2words/ta-IN'),
  te: () => import('n2words/te-IN'),
  kn: () => import('n2words/kn-IN'),
  mr: () => import('n2words/mr-IN'),
  gu: () => import('n2words/gu-IN'),
  pa: () => import('n2words/pa-IN'),
  ur: () => import('n2words/ur-PK'),
  sw: () => import('n2words/sw-KE'),
  az: () => import('n2words/az-AZ'),
  ka: () => import('n2words/ka-GE'),
  am: () => import('n2words/am-ET'),
  ha: () => import('n2words/ha-NG'),
  yo: () => import('n2words/yo-NG'),
  tl: () => import('n2words/fil-PH'),
};

/**
 * How numbers are said in `language`, or null where no module has its words (the digits are
 * then given as written).
 */
export async function numberWordsFor(language: string): Promise<NumberWords | null> {
  const load = LOADERS[language];
  if (load === undefined) return null;
  const { toCardinal } = await load();
  return (value) => {
    try {
      return toCardinal(value);
    } catch {
      return null;
    }
  };
}
