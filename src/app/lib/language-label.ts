import { TRANSLATION_TARGETS } from '../../core/contract/languages';

/** A language code as the page names it: "French" for `fr`; an unknown code as it is. */
export function languageLabel(code: string): string {
  const name = (TRANSLATION_TARGETS as Readonly<Record<string, string>>)[code];
  return name === undefined ? code : name.replace(/^./, (c) => c.toUpperCase());
}
