import { useAppStore } from '../store/app-store';
import { Field, inputClass } from './Field';
import { OpenScriptFile } from './OpenScriptFile';
import { Section } from './Section';
import { Toggle } from './Toggle';

/** The text that was said, when the user has it: its words are timed instead of recognised. */
export function ScriptSection() {
  const on = useAppStore((s) => s.values.align_script);
  const script = useAppStore((s) => s.values.script);
  const setValue = useAppStore((s) => s.setValue);
  const setProblems = useAppStore((s) => s.setProblems);
  return (
    <Section title="Script">
      <Toggle
        name="align_script"
        label="Time a text I already have"
        description="Your words are kept exactly as written and timed to the media, instead of what Murmur hears."
        checked={on}
        onChange={(v) => setValue('align_script', v)}
      />
      {on && (
        <Field
          name="script"
          label="Text that was said"
          hint="A script, notes typed during the talk, or subtitles with wrong times. One segment per sentence or line (per cue for subtitles)."
        >
          {({ id, describedBy, invalid }) => (
            <>
              <textarea
                id={id}
                rows={5}
                className={inputClass}
                value={script}
                aria-invalid={invalid}
                aria-describedby={describedBy || undefined}
                data-testid="options.script"
                onChange={(e) => setValue('script', e.target.value)}
              />
              <OpenScriptFile
                onOpen={(text) => setValue('script', text)}
                onProblem={(problem) => setProblems([problem])}
              />
            </>
          )}
        </Field>
      )}
    </Section>
  );
}
