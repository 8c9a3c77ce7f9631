import { useId } from 'react';

/** How loud one channel is now: a meter, named for screen readers. */
export function LevelMeter({ name, level }: { name: string; level: number }) {
  const id = useId();
  return (
    <div className="flex items-center gap-2 text-sm">
      <label htmlFor={id} className="w-28 shrink-0 text-slate-700">
        {name} level
      </label>
      <meter
        id={id}
        min={0}
        max={1}
        low={0.6}
        high={0.9}
        optimum={0.3}
        value={level}
        data-testid="record.level"
        className="h-3 w-full"
      />
    </div>
  );
}
