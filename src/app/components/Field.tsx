import type { ReactNode } from 'react';
import { userProblem } from '../lib/user-wording';
import { useAppStore } from '../store/app-store';

interface FieldProps {
  /** The form field name; its problems are shown under the control. */
  name: string;
  label: string;
  hint?: string;
  children: (ids: { id: string; describedBy: string; invalid: boolean }) => ReactNode;
}

/** A labelled control with its hint and, after a submit, its problems. */
export function Field({ name, label, hint, children }: FieldProps) {
  const problems = useAppStore((s) => s.problems[name]);
  const id = `field-${name}`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : '', problems ? errorId : ''].filter(Boolean).join(' ');
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        {label}
      </label>
      {children({ id, describedBy, invalid: Boolean(problems) })}
      {hint && (
        <p id={hintId} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      )}
      <FieldProblems name={name} id={errorId} />
    </div>
  );
}

export function FieldProblems({ name, id }: { name: string; id?: string }) {
  const problems = useAppStore((s) => s.problems[name]);
  const values = useAppStore((s) => s.values);
  if (!problems) return null;
  return (
    <ul id={id} className="mt-1 space-y-0.5 text-sm text-rose-700" data-testid={`error.${name}`}>
      {problems.map((message) => (
        <li key={message}>{userProblem(name, message, values)}</li>
      ))}
    </ul>
  );
}

export const inputClass =
  'block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-500 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 aria-[invalid=true]:border-rose-400 aria-[invalid=true]:ring-rose-200 disabled:bg-slate-50 disabled:text-slate-500';
