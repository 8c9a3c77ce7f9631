import { useAppStore } from '../store/app-store';
import { Field, inputClass } from './Field';
import { Section } from './Section';
import { TermsField } from './TermsField';
import { Toggle } from './Toggle';

export function QualitySection() {
  const noise = useAppStore((s) => s.values.toggle_noise_reduction);
  const hint = useAppStore((s) => s.values.transcription_hint);
  const setValue = useAppStore((s) => s.setValue);
  return (
    <Section title="Accuracy">
      <Toggle
        name="toggle_noise_reduction"
        label="Reduce background noise"
        description="Cleans up hum, hiss and room noise before recognition."
        checked={noise}
        onChange={(v) => setValue('toggle_noise_reduction', v)}
      />
      <Field
        name="transcription_hint"
        label="Vocabulary hint"
        hint="Names and terms the recording uses, so they are spelled right. Optional."
      >
        {({ id, describedBy, invalid }) => (
          <textarea
            id={id}
            rows={2}
            placeholder="e.g. Murmur, WebGPU, Dr. Okonkwo"
            className={inputClass}
            value={hint}
            aria-invalid={invalid}
            aria-describedby={describedBy || undefined}
            data-testid="options.transcription_hint"
            onChange={(e) => setValue('transcription_hint', e.target.value)}
          />
        )}
      </Field>
      <TermsField />
    </Section>
  );
}
