interface FindCheckboxProps {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  testId: string;
}

/** An option of the find and replace panel. */
export function FindCheckbox({ label, checked, onChange, testId }: FindCheckboxProps) {
  return (
    <label className="flex items-center gap-1.5 text-sm text-slate-800">
      <input
        type="checkbox"
        checked={checked}
        className="h-4 w-4 rounded border-slate-300 text-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
        data-testid={testId}
        onChange={(e) => onChange(e.target.checked)}
      />
      {label}
    </label>
  );
}
