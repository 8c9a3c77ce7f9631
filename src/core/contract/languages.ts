/**
 * Whisper's languages: short code <-> lower-case English name, in Whisper's own order
 * (the order of its language tokens). Names are those the service accepts in `language`.
 */
export const WHISPER_LANGUAGES = {
  en: 'english',
  zh: 'chinese',
  de: 'german',
  es: 'spanish',
  ru: 'russian',
  ko: 'korean',
  fr: 'french',
  ja: 'japanese',
  pt: 'portuguese',
  tr: 'turkish',
  pl: 'polish',
  ca: 'catalan',
  nl: 'dutch',
  ar: 'arabic',
  sv: 'swedish',
  it: 'italian',
  id: 'indonesian',
  hi: 'hindi',
  fi: 'finnish',
  vi: 'vietnamese',
  he: 'hebrew',
  uk: 'ukrainian',
  el: 'greek',
  ms: 'malay',
  cs: 'czech',
  ro: 'romanian',
  da: 'danish',
  hu: 'hungarian',
  ta: 'tamil',
  no: 'norwegian',
  th: 'thai',
  ur: 'urdu',
  hr: 'croatian',
  bg: 'bulgarian',
  lt: 'lithuanian',
  la: 'latin',
  mi: 'maori',
  ml: 'malayalam',
  cy: 'welsh',
  sk: 'slovak',
  te: 'telugu',
  fa: 'persian',
  lv: 'latvian',
  bn: 'bengali',
  sr: 'serbian',
  az: 'azerbaijani',
  sl: 'slovenian',
  kn: 'kannada',
  et: 'estonian',
  mk: 'macedonian',
  br: 'breton',
  eu: 'basque',
  is: 'icelandic',
  hy: 'armenian',
  ne: 'nepali',
  mn: 'mongolian',
  bs: 'bosnian',
  kk: 'kazakh',
  sq: 'albanian',
  sw: 'swahili',
  gl: 'galician',
  mr: 'marathi',
  pa: 'punjabi',
  si: 'sinhala',
  km: 'khmer',
  sn: 'shona',
  yo: 'yoruba',
  so: 'somali',
  af: 'afrikaans',
  oc: 'occitan',
  ka: 'georgian',
  be: 'belarusian',
  tg: 'tajik',
  sd: 'sindhi',
  gu: 'gujarati',
  am: 'amharic',
  yi: 'yiddish',
  lo: 'lao',
  uz: 'uzbek',
  fo: 'faroese',
  ht: 'haitian creole',
  ps: 'pashto',
  tk: 'turkmen',
  nn: 'nynorsk',
  mt: 'maltese',
  sa: 'sanskrit',
  lb: 'luxembourgish',
  my: 'myanmar',
  bo: 'tibetan',
  tl: 'tagalog',
  mg: 'malagasy',
  as: 'assamese',
  tt: 'tatar',
  haw: 'hawaiian',
  ln: 'lingala',
  ha: 'hausa',
  ba: 'bashkir',
  jw: 'javanese',
  su: 'sundanese',
} as const;

export type LanguageCode = keyof typeof WHISPER_LANGUAGES;
export type LanguageName = (typeof WHISPER_LANGUAGES)[LanguageCode];

/**
 * Translation targets: Whisper's languages plus Wolof, which the service's target list also
 * names. Wolof is not a Whisper language, so it has a code of its own here.
 */
export const TRANSLATION_TARGETS = { ...WHISPER_LANGUAGES, wo: 'wolof' } as const;
export type TranslationTargetCode = keyof typeof TRANSLATION_TARGETS;

/** Other names people use for the same languages (Whisper accepts these too). */
const ALIASES: Readonly<Record<string, LanguageCode>> = {
  burmese: 'my',
  valencian: 'ca',
  flemish: 'nl',
  haitian: 'ht',
  letzeburgesch: 'lb',
  pushto: 'ps',
  panjabi: 'pa',
  moldavian: 'ro',
  moldovan: 'ro',
  sinhalese: 'si',
  castilian: 'es',
  mandarin: 'zh',
};

function invert<T extends Record<string, string>>(table: T): Map<string, keyof T> {
  const byName = new Map<string, keyof T>();
  for (const [code, name] of Object.entries(table)) byName.set(name, code);
  return byName;
}

const LANGUAGE_BY_NAME = invert(WHISPER_LANGUAGES);
const TARGET_BY_NAME = invert(TRANSLATION_TARGETS);

function normaliseName(name: string): string {
  return name.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** The code of a Whisper language given its English name (any case), or null. */
export function languageCodeOf(name: string): LanguageCode | null {
  const key = normaliseName(name);
  return LANGUAGE_BY_NAME.get(key) ?? ALIASES[key] ?? null;
}

/** The code of a translation target given its English name (any case), or null. */
export function translationTargetCodeOf(name: string): TranslationTargetCode | null {
  const key = normaliseName(name);
  return TARGET_BY_NAME.get(key) ?? ALIASES[key] ?? null;
}

export function languageNameOf(code: LanguageCode): LanguageName {
  return WHISPER_LANGUAGES[code];
}

export function isLanguageCode(code: string): code is LanguageCode {
  return Object.hasOwn(WHISPER_LANGUAGES, code);
}

/** Language names sorted alphabetically, for pickers. */
export const LANGUAGE_NAMES_SORTED: readonly LanguageName[] = Object.values(WHISPER_LANGUAGES)
  .slice()
  .sort();

export const TRANSLATION_TARGET_NAMES_SORTED: readonly string[] = Object.values(TRANSLATION_TARGETS)
  .slice()
  .sort();
