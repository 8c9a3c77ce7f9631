import { OUTPUT_FORMATS } from '../../core/contract/request';
import { useAppStore } from '../store/app-store';
import { Field, inputClass } from './Field';
import { Section } from './Section';

const FORMAT_LABELS: Record<(typeof OUTPUT_FORMATS)[number], string> = {
  json: 'JSON',
  srt: 'SRT subtitles',
  vtt: 'WebVTT subtitles',
  txt: 'Plain text',
};

export function DeliverySection() {
  const format = useAppStore((s) => s.values.output_format);
  const webhook = useAppStore((s) => s.values.webhook_url);
  const setValue = useAppStore((s) => s.setValue);
  return (
    <Section title="Output">
      <Field
        name="output_format"
        label="Result format"
        hint="What the prediction text holds. Every format can be downloaded afterwards."
      >
        {({ id, describedBy, invalid }) => (
          <select
            id={id}
            className={inputClass}
            value={format}
            aria-invalid={invalid}
            aria-describedby={describedBy || undefined}
            data-testid="options.output_format"
            onChange={(e) => setValue('output_format', e.target.value)}
          >
            {OUTPUT_FORMATS.map((f) => (
              <option key={f} value={f}>
                {FORMAT_LABELS[f]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field
        name="webhook_url"
        label="Webhook URL"
        hint="Optional. Your browser POSTs the finished result there as JSON ({ request_id, payload }); the receiver must allow this page (CORS)."
      >
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            type="url"
            inputMode="url"
            placeholder="https://example.com/hooks/transcripts"
            className={inputClass}
            value={webhook}
            aria-invalid={invalid}
            aria-describedby={describedBy || undefined}
            data-testid="options.webhook_url"
            onChange={(e) => setValue('webhook_url', e.target.value)}
          />
        )}
      </Field>
    </Section>
  );
}
