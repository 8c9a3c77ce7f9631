import { useAppStore } from '../store/app-store';
import { DropZone } from './DropZone';
import { Field, FieldProblems, inputClass } from './Field';
import { Recorder } from './Recorder';
import { Section } from './Section';

export function MediaSection() {
  const endpoint = useAppStore((s) => s.values.endpoint);
  const url = useAppStore((s) => s.values.url);
  const hasFile = useAppStore((s) => s.values.file !== null);
  const setValue = useAppStore((s) => s.setValue);
  return (
    <Section title="Media">
      <DropZone />
      <FieldProblems name="file" id="field-file-error" />
      <Recorder />
      <Field
        name="url"
        label={`Or a link to ${endpoint === 'video' ? 'a video' : 'an audio'} file`}
        hint={
          hasFile
            ? 'A file is chosen, so the link will be ignored.'
            : 'A direct link to the media file; the server must allow downloads from other sites.'
        }
      >
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            type="url"
            inputMode="url"
            placeholder="https://example.com/interview.mp3"
            className={inputClass}
            value={url}
            aria-invalid={invalid}
            aria-describedby={describedBy || undefined}
            data-testid="media.url"
            onChange={(e) => setValue('url', e.target.value)}
          />
        )}
      </Field>
      <div role="radiogroup" aria-label="Endpoint" className="flex gap-2 text-sm">
        {(['audio', 'video'] as const).map((value) => (
          <label
            key={value}
            className={`flex-1 cursor-pointer rounded-lg border px-3 py-2 text-center transition has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-indigo-700 ${
              endpoint === value
                ? 'border-indigo-500 bg-indigo-50 font-medium text-indigo-800'
                : 'border-slate-300 text-slate-600 hover:bg-slate-50'
            }`}
          >
            <input
              type="radio"
              name="endpoint"
              value={value}
              className="sr-only"
              checked={endpoint === value}
              data-testid={`media.endpoint-${value}`}
              onChange={() => setValue('endpoint', value)}
            />
            {value === 'audio' ? 'Audio' : 'Video (audio track is transcribed)'}
          </label>
        ))}
      </div>
    </Section>
  );
}
