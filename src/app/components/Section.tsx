import type { ReactNode } from 'react';

interface SectionProps {
  title: string;
  description?: string;
  badge?: string;
  children: ReactNode;
}

export function Section({ title, description, badge, children }: SectionProps) {
  return (
    <fieldset className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <legend className="sr-only">{title}</legend>
      <div className="mb-4 flex items-baseline gap-2">
        <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-800">{title}</h2>
        {badge && (
          <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800">
            {badge}
          </span>
        )}
      </div>
      {description && <p className="-mt-3 mb-4 text-sm text-slate-600">{description}</p>}
      <div className="space-y-4">{children}</div>
    </fieldset>
  );
}
