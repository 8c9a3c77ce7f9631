import { inputClass } from './Field';

interface ModelChoiceProps {
  id: string;
  label: string;
  choices: readonly { id: string; label: string; licence: string; approxDownloadMb: number }[];
  value: string;
  /** What the model does, said under the list with the chosen model's licence. */
  note: string;
  testId: string;
  onChange: (id: string) => void;
}

/** A model picked from the catalogue's choices, each with its licence and download size. */
export function ModelChoice({
  id,
  label,
  choices,
  value,
  note,
  testId,
  onChange,
}: ModelChoiceProps) {
  const chosen = choices.find((c) => c.id === value);
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        className={inputClass}
        value={value}
        aria-describedby={`${id}-note`}
        data-testid={testId}
        onChange={(e) => onChange(e.target.value)}
      >
        {choices.map((c) => (
          <option key={c.id} value={c.id}>
            {c.label} · {c.licence} · about {c.approxDownloadMb} MB
          </option>
        ))}
        {!chosen && <option value={value}>Custom: {value}</option>}
      </select>
      <p id={`${id}-note`} className="mt-1 text-xs text-slate-600">
        {note} Licence: {chosen ? chosen.licence : 'see the model’s page'}.
      </p>
    </div>
  );
}
