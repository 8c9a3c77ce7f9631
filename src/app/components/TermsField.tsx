import { useAppStore } from '../store/app-store';
import { inputClass } from './Field';

/**
 * The term list (names, jargon; one a line), kept across visits and shown as the vocabulary
 * hint of the next requests; refused, and said so, when it is too long for the hint.
 */
export function TermsField() {
  const terms = useAppStore((s) => s.terms);
  const problem = useAppStore((s) => s.termsProblem);
  const setTerms = useAppStore((s) => s.setTerms);
  const id = 'field-terms';
  return (
    <div>
      <label htmlFor={id} className="mb-1 block text-sm font-medium text-slate-700">
        Terms
      </label>
      <textarea
        id={id}
        rows={3}
        placeholder={'Murmur\nWebGPU\nDr. Okonkwo'}
        className={inputClass}
        value={terms}
        aria-invalid={problem ? true : undefined}
        aria-describedby={`${id}-hint${problem ? ` ${id}-error` : ''}`}
        data-testid="options.terms"
        onChange={(e) => setTerms(e.target.value)}
      />
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
        One a line. Kept on this device and filled in as the vocabulary hint of your next requests.
      </p>
      {problem && (
        <p
          id={`${id}-error`}
          role="alert"
          className="mt-1 text-sm text-red-700"
          data-testid="options.terms-error"
        >
          {problem}
        </p>
      )}
    </div>
  );
}
