import { useAppStore } from '../store/app-store';
import { Field, inputClass } from './Field';
import { Section } from './Section';
import { Toggle } from './Toggle';

const COUNTS = [
  ['diarization_num_speakers', 'Exactly'],
  ['diarization_min_speakers', 'At least'],
  ['diarization_max_speakers', 'At most'],
] as const;

export function SpeakersSection() {
  const on = useAppStore((s) => s.values.toggle_diarization);
  const values = useAppStore((s) => s.values);
  const setValue = useAppStore((s) => s.setValue);
  return (
    <Section title="Speakers">
      <Toggle
        name="toggle_diarization"
        label="Tell speakers apart"
        description="Labels who speaks when, for interviews and meetings: each segment gets its speaker, and the result shows a timeline of who speaks when, with names you can give them. The speaker models download with the first such transcription (see Models)."
        checked={on}
        onChange={(v) => setValue('toggle_diarization', v)}
      />
      {on && (
        <div>
          <p className="mb-2 text-xs text-slate-600">
            Number of speakers, if you know it: the counts guide how voices are grouped (leave empty
            to let Murmur decide).
          </p>
          <div className="grid grid-cols-3 gap-3">
            {COUNTS.map(([name, label]) => (
              <Field key={name} name={name} label={label}>
                {({ id, describedBy, invalid }) => (
                  <input
                    id={id}
                    type="number"
                    min={1}
                    step={1}
                    inputMode="numeric"
                    className={inputClass}
                    value={values[name]}
                    aria-invalid={invalid}
                    aria-describedby={describedBy || undefined}
                    data-testid={`options.${name}`}
                    onChange={(e) => setValue(name, e.target.value)}
                  />
                )}
              </Field>
            ))}
          </div>
        </div>
      )}
    </Section>
  );
}
