import { LANGUAGE_NAMES_SORTED } from '../../core/contract/languages';
import { LANGUAGE_BEHAVIOURS } from '../../core/contract/request';
import { useAppStore } from '../store/app-store';
import { Field, FieldProblems, inputClass } from './Field';
import { Section } from './Section';

const BEHAVIOUR_TEXT: Record<(typeof LANGUAGE_BEHAVIOURS)[number], [string, string]> = {
  'automatic single language': [
    'Detect one language',
    'Finds the main language and transcribes everything in it.',
  ],
  'automatic multiple languages': [
    'Detect language changes',
    'For conversations that switch languages; each segment keeps its own.',
  ],
  manual: ['I know the language', 'Skips detection: pick the language below.'],
};

export function LanguageSection() {
  const behaviour = useAppStore((s) => s.values.language_behaviour);
  const language = useAppStore((s) => s.values.language);
  const setValue = useAppStore((s) => s.setValue);
  const manual = behaviour === 'manual';
  return (
    <Section title="Language">
      <div role="radiogroup" aria-label="Language detection" className="grid gap-2">
        {LANGUAGE_BEHAVIOURS.map((value) => {
          const [title, text] = BEHAVIOUR_TEXT[value];
          return (
            <label
              key={value}
              className={`cursor-pointer rounded-xl border p-3 transition has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-700 ${
                behaviour === value
                  ? 'border-indigo-500 bg-indigo-50'
                  : 'border-slate-200 hover:bg-slate-50'
              }`}
            >
              <input
                type="radio"
                name="language_behaviour"
                value={value}
                className="sr-only"
                checked={behaviour === value}
                data-testid={`options.language_behaviour.${value.replace(/ /g, '-')}`}
                onChange={() => setValue('language_behaviour', value)}
              />
              <span className="block text-sm font-medium text-slate-900">{title}</span>
              <span className="block text-xs text-slate-600">{text}</span>
            </label>
          );
        })}
      </div>
      <FieldProblems name="language_behaviour" />
      {manual && (
        <Field name="language" label="Spoken language" hint="Type to search 99 languages.">
          {({ id, describedBy, invalid }) => (
            <>
              <input
                id={id}
                list="language-names"
                autoComplete="off"
                placeholder="e.g. english"
                className={inputClass}
                value={language}
                aria-invalid={invalid}
                aria-describedby={describedBy || undefined}
                data-testid="options.language"
                onChange={(e) => setValue('language', e.target.value)}
              />
              <datalist id="language-names">
                {LANGUAGE_NAMES_SORTED.map((name) => (
                  <option key={name} value={name} />
                ))}
              </datalist>
            </>
          )}
        </Field>
      )}
    </Section>
  );
}
