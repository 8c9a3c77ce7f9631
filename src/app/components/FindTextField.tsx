interface FindTextFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
  onEnter?: () => void;
}

/** A labelled text field of the find and replace panel. */
export function FindTextField({ id, label, value, onChange, testId, onEnter }: FindTextFieldProps) {
  return (
    <div className="min-w-40 flex-1">
      <label htmlFor={id} className="mb-1 block text-xs font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        type="text"
        value={value}
        autoComplete="off"
        spellCheck={false}
        className="w-full rounded-lg border border-slate-300 px-2 py-1 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-600"
        data-testid={testId}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && onEnter) {
            e.preventDefault();
            onEnter();
          }
        }}
      />
    </div>
  );
}
