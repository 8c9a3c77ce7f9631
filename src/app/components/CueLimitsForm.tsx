import { useMemo } from 'react';
import type { Segment } from '../../core/contract/response';
import { readableCues, type CueLimits } from '../../core/format/readable-cues';
import { useAppStore } from '../store/app-store';
import { CueLimitField } from './CueLimitField';
import { SubtitleProfileSelect } from './SubtitleProfileSelect';

type NumericLimit = Exclude<keyof CueLimits, 'speakerNames'>;

const FIELDS: { key: NumericLimit; label: string; min: number; step: number }[] = [
  { key: 'maxLineChars', label: 'Characters a line', min: 8, step: 1 },
  { key: 'maxLines', label: 'Lines a cue', min: 1, step: 1 },
  { key: 'maxCharsPerSecond', label: 'Reading speed (characters a second)', min: 1, step: 1 },
  { key: 'minSeconds', label: 'Shortest cue (seconds)', min: 0, step: 0.1 },
  { key: 'maxSeconds', label: 'Longest cue (seconds)', min: 0.5, step: 0.5 },
  { key: 'gapSeconds', label: 'Gap between cues (seconds)', min: 0, step: 0.01 },
];

/** The limits of readable subtitles (downloads and captions), kept across visits. */
export function CueLimitsForm({
  segments,
  duration,
}: {
  segments: readonly Segment[];
  duration: number;
}) {
  const limits = useAppStore((s) => s.cueLimits);
  // Speech faster than the reading speed cannot be slowed down: say how often that happens.
  const tooFast = useMemo(
    () => readableCues(segments, limits, duration).filter((c) => c.tooFast).length,
    [segments, limits, duration],
  );
  const setCueLimit = useAppStore((s) => s.setCueLimit);
  const profileChoices = useAppStore((s) => s.profileChoices);
  return (
    <details className="rounded-xl ring-1 ring-slate-200" data-testid="cues.limits">
      <summary className="cursor-pointer rounded-xl px-3 py-2 text-sm font-medium text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-600">
        Subtitle limits (readable SRT and VTT, captions)
      </summary>
      <div className="grid gap-3 px-3 pb-3 sm:grid-cols-3">
        <SubtitleProfileSelect />
        {FIELDS.map(({ key, label, min, step }) => (
          <CueLimitField
            // A new profile sets every limit: the fields start again from its values.
            key={`${key}.${profileChoices}`}
            id={`cues.${key}`}
            label={label}
            value={limits[key]}
            min={min}
            step={step}
            onChange={(value) => setCueLimit(key, key === 'maxLines' ? Math.floor(value) : value)}
          />
        ))}
        <label className="flex items-center gap-2 text-xs font-medium text-slate-800 sm:col-span-3">
          <input
            type="checkbox"
            checked={limits.speakerNames}
            onChange={(e) => setCueLimit('speakerNames', e.target.checked)}
            className="h-4 w-4 accent-indigo-700"
            data-testid="cues.speakerNames"
          />
          Start each cue with its speaker’s name (when speakers are named)
        </label>
      </div>
      {tooFast > 0 && (
        <p className="px-3 pb-3 text-xs text-amber-900" data-testid="cues.too-fast">
          {tooFast === 1 ? 'One cue is' : `${tooFast} cues are`} faster to read than{' '}
          {limits.maxCharsPerSecond} characters a second: the speech itself is that fast. Shortening{' '}
          {tooFast === 1 ? 'its' : 'their'} text in the transcript helps.
        </p>
      )}
    </details>
  );
}
