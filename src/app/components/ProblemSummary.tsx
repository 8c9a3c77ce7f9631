import { CONTROL_LABELS, userProblem } from '../lib/user-wording';
import { useAppStore } from '../store/app-store';

/** After a rejected submit: how many problems, each a link to its field. */
export function ProblemSummary() {
  const problems = useAppStore((s) => s.problems);
  const values = useAppStore((s) => s.values);
  const fields = Object.keys(problems);
  if (fields.length === 0) return null;
  const count = Object.values(problems).flat().length;
  return (
    <div
      role="alert"
      data-testid="form.problems"
      className="rounded-xl border border-rose-200 bg-rose-50 p-4 text-sm text-rose-800"
    >
      <p className="font-medium">
        {count === 1 ? 'One thing to fix' : `${count} things to fix`} before transcribing:
      </p>
      <ul className="mt-1 list-inside list-disc">
        {fields.map((field) => (
          <li key={field}>
            <a href={`#field-${field}`} className="underline underline-offset-2">
              {CONTROL_LABELS[field] ?? field}
            </a>
            : {problems[field]?.map((m) => userProblem(field, m, values)).join(' ')}
          </li>
        ))}
      </ul>
    </div>
  );
}
