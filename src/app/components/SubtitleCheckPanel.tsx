import { useMemo, useState } from 'react';
import type { Segment } from '../../core/contract/response';
import { readableCues } from '../../core/format/readable-cues';
import { applyFix, checkCues, type Finding } from '../../core/subtitles/check';
import type { SubtitleCue } from '../../core/subtitles/cue';
import { parseSubtitles } from '../../core/subtitles/parse';
import { customProfile, presetProfile } from '../../core/subtitles/profiles';
import { useAppStore } from '../store/app-store';
import { CheckFindingItem } from './CheckFindingItem';
import { FixedDownloads } from './FixedDownloads';
import { OpenSubtitleFile } from './OpenSubtitleFile';

/** Cues checked here: the readable subtitles, or a file the user opened, with fixes made. */
interface Checked {
  /** The readable cues the fixes were made to (fixes are dropped when these change). */
  from: readonly SubtitleCue[] | null;
  name: string | null;
  cues: SubtitleCue[];
  /** Fixes made to these cues so far. */
  fixes: number;
}

/** The findings of the readable subtitles (or a file of the user's) against the profile. */
export function SubtitleCheckPanel({
  segments,
  duration,
}: {
  segments: readonly Segment[];
  duration: number;
}) {
  const limits = useAppStore((s) => s.cueLimits);
  const resultName = useAppStore((s) => s.resultName);
  const profileId = useAppStore((s) => s.subtitleProfile);
  const profile = presetProfile(profileId) ?? customProfile(limits);
  const readable = useMemo(
    () => readableCues(segments, limits, duration),
    [segments, limits, duration],
  );
  const [checked, setChecked] = useState<Checked | null>(null);
  const current =
    checked && (checked.name !== null || checked.from === readable)
      ? checked
      : { from: readable, name: null, cues: readable.map((c) => ({ ...c })), fixes: 0 };
  const findings = useMemo(() => checkCues(current.cues, profile), [current.cues, profile]);
  const fix = (finding: Finding) =>
    setChecked({
      ...current,
      cues: applyFix(current.cues, finding, profile),
      fixes: current.fixes + 1,
    });
  const cueCount = current.cues.length === 1 ? '1 cue' : `${current.cues.length} cues`;
  const what = current.name === null ? 'the readable subtitles' : current.name;
  return (
    <details className="rounded-xl ring-1 ring-slate-200" data-testid="check.panel">
      <summary className="cursor-pointer rounded-xl px-3 py-2 text-sm font-medium text-slate-800 focus-visible:outline-2 focus-visible:outline-indigo-600">
        Check subtitles
      </summary>
      <div className="space-y-2 px-3 pb-3">
        <p className="text-xs text-slate-700" data-testid="check.summary">
          {findings.length === 0
            ? `No findings in ${cueCount} of ${what} against ${profile.label}.`
            : `${findings.length === 1 ? '1 finding' : `${findings.length} findings`} in ${cueCount} of ${what} against ${profile.label}.`}
        </p>
        {findings.length > 0 && (
          <ul className="space-y-1">
            {findings.map((f) => (
              <CheckFindingItem key={`${f.cue}-${f.kind}`} finding={f} onFix={fix} />
            ))}
          </ul>
        )}
        <div className="flex flex-wrap gap-3">
          <OpenSubtitleFile
            onOpen={(name, text) =>
              setChecked({ from: null, name, cues: parseSubtitles(text), fixes: 0 })
            }
          />
          {current.fixes > 0 && (
            <FixedDownloads
              cues={current.cues}
              name={current.name ?? resultName}
              own={current.name !== null}
            />
          )}
          {current.name !== null && (
            <button
              type="button"
              onClick={() => setChecked(null)}
              className="text-xs font-medium text-indigo-800 underline"
              data-testid="check.readable"
            >
              Check the readable subtitles again
            </button>
          )}
        </div>
      </div>
    </details>
  );
}
