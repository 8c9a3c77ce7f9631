import { TRANSLATION_TARGET_NAMES_SORTED } from '../../core/contract/languages';
import { useAppStore } from '../store/app-store';
import { Field, inputClass } from './Field';
import { Section } from './Section';
import { Toggle } from './Toggle';

export function TranslationSection() {
  const on = useAppStore((s) => s.values.toggle_direct_translate);
  const target = useAppStore((s) => s.values.target_translation_language);
  const setValue = useAppStore((s) => s.setValue);
  return (
    <Section title="Translation" badge="beta">
      <Toggle
        name="toggle_direct_translate"
        label="Translate the transcript"
        description="Gives the segments in another language, translated in your browser by the translation model chosen under Models. The original stays beside each segment and can be downloaded too."
        checked={on}
        onChange={(v) => setValue('toggle_direct_translate', v)}
      />
      {on && (
        <Field name="target_translation_language" label="Translate into">
          {({ id, describedBy, invalid }) => (
            <>
              <input
                id={id}
                list="target-names"
                autoComplete="off"
                placeholder="e.g. english"
                className={inputClass}
                value={target}
                aria-invalid={invalid}
                aria-describedby={describedBy || undefined}
                data-testid="options.target_translation_language"
                onChange={(e) => setValue('target_translation_language', e.target.value)}
              />
              <datalist id="target-names">
                {TRANSLATION_TARGET_NAMES_SORTED.map((name) => (
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
