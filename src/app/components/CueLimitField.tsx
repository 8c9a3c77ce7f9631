import { useState } from 'react';

interface CueLimitFieldProps {
  id: string;
  label: string;
  value: number;
  min: number;
  step: number;
  onChange: (value: number) => void;
}

/** One limit of readable subtitles; a value under the least allowed is refused, and says so. */
export function CueLimitField({ id, label, value, min, step, onChange }: CueLimitFieldProps) {
  const [text, setText] = useState(String(value));
  const number = Number(text);
  const valid = text.trim() !== '' && Number.isFinite(number) && number >= min;
  return (
    <div className="text-xs font-medium text-slate-800">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        min={min}
        step={step}
        value={text}
        aria-invalid={!valid}
        aria-describedby={valid ? undefined : `${id}-error`}
        onChange={(e) => {
          setText(e.target.value);
          const next = Number(e.target.value);
          if (e.target.value.trim() !== '' && Number.isFinite(next) && next >= min) onChange(next);
        }}
        className="mt-1 block w-full rounded-lg border border-slate-400 bg-white px-2 py-1 text-sm text-slate-900 focus:border-indigo-600 focus:outline-none focus:ring-2 focus:ring-indigo-600/40 aria-[invalid=true]:border-rose-600"
        data-testid={id}
      />
      {!valid && (
        <p id={`${id}-error`} className="mt-1 text-rose-700">
          At least {min}; {value} is used meanwhile.
        </p>
      )}
    </div>
  );
}
