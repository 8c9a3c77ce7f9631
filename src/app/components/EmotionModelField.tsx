import { EMOTION_CHOICES } from '../../core/model-catalog';
import { useAppStore } from '../store/app-store';
import { Field, inputClass } from './Field';

/**
 * The model that tells each sentence's emotion from the voice, or none: then only the words'
 * sentiment is read. The chosen model's size and licence are said under it.
 */
export function EmotionModelField() {
  const model = useAppStore((s) => s.values.emotion_model);
  const setValue = useAppStore((s) => s.setValue);
  const choice = EMOTION_CHOICES.find((c) => c.id === model);
  return (
    <Field
      name="emotion_model"
      label="Emotion from the voice"
      hint={
        choice
          ? `Downloaded the first time it is used (about ${choice.approxDownloadMb} MB). Licence: ${choice.licence}. A sentence under a second, or one the model is not sure of, gets no emotion.`
          : 'Not read: each sentence gets its sentiment from its words only.'
      }
    >
      {({ id, describedBy, invalid }) => (
        <select
          id={id}
          className={inputClass}
          value={model}
          aria-invalid={invalid}
          aria-describedby={describedBy || undefined}
          data-testid="options.emotion_model"
          onChange={(e) => setValue('emotion_model', e.target.value)}
        >
          <option value="">Not read</option>
          {EMOTION_CHOICES.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
