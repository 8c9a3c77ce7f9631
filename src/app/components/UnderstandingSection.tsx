import { SUMMARY_TYPES, type SummaryType } from '../../core/contract/request';
import { useAppStore } from '../store/app-store';
import { EmotionModelField } from './EmotionModelField';
import { Field, inputClass } from './Field';
import { Section } from './Section';
import { Toggle } from './Toggle';

export const SUMMARY_TYPE_LABELS: Record<SummaryType, string> = {
  general: 'A paragraph for each chapter',
  concise: 'A few sentences for the whole file',
  bullet_points: 'Bullet points, one for each key sentence',
};

/**
 * Chapters, a summary and each sentence's sentiment: made in this browser from the transcript's
 * own sentences.
 */
export function UnderstandingSection() {
  const chapters = useAppStore((s) => s.values.toggle_chapterization);
  const summary = useAppStore((s) => s.values.toggle_summarization);
  const type = useAppStore((s) => s.values.summarization_type);
  const sentiment = useAppStore((s) => s.values.toggle_emotion_recognition);
  const setValue = useAppStore((s) => s.setValue);
  return (
    <Section title="Chapters, summary and sentiment">
      <Toggle
        name="toggle_chapterization"
        label="Find chapters"
        description="Cuts the transcript where its topic changes, each chapter with a headline, keywords and its key sentences. Made in your browser, with nothing to download."
        checked={chapters}
        onChange={(v) => setValue('toggle_chapterization', v)}
      />
      <Toggle
        name="toggle_summarization"
        label="Summarise"
        description="Picks the sentences that say the most; each one plays where it was said."
        checked={summary}
        onChange={(v) => setValue('toggle_summarization', v)}
      />
      {summary && (
        <Field name="summarization_type" label="Summary">
          {({ id, describedBy, invalid }) => (
            <select
              id={id}
              className={inputClass}
              value={type}
              aria-invalid={invalid}
              aria-describedby={describedBy || undefined}
              data-testid="options.summarization_type"
              onChange={(e) => setValue('summarization_type', e.target.value)}
            >
              {SUMMARY_TYPES.map((t) => (
                <option key={t} value={t}>
                  {SUMMARY_TYPE_LABELS[t]}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <Toggle
        name="toggle_emotion_recognition"
        label="Read sentiment"
        description="Tells whether each sentence sounds positive, negative, neutral or mixed from its words, in English, French, German and Spanish, and how much of each speaker's time is which."
        checked={sentiment}
        onChange={(v) => setValue('toggle_emotion_recognition', v)}
      />
      {sentiment && <EmotionModelField />}
    </Section>
  );
}
