import { customLabel, PRESET_PROFILES, type ProfileId } from '../../core/subtitles/profiles';
import { useAppStore } from '../store/app-store';

/** Which guideline the readable subtitles keep: a preset sets every limit at once. */
export function SubtitleProfileSelect() {
  const profile = useAppStore((s) => s.subtitleProfile);
  const setProfile = useAppStore((s) => s.setSubtitleProfile);
  const limits = useAppStore((s) => s.cueLimits);
  return (
    <div className="text-xs font-medium text-slate-800 sm:col-span-3">
      <label htmlFor="check.profile">Profile</label>
      <select
        id="check.profile"
        value={profile}
        onChange={(e) => setProfile(e.target.value as ProfileId)}
        className="mt-1 block w-full rounded-lg border border-slate-400 bg-white px-2 py-1 text-sm text-slate-900 focus:border-indigo-600 focus:outline-none focus:ring-2 focus:ring-indigo-600/40"
        data-testid="check.profile"
      >
        {PRESET_PROFILES.map((p) => (
          <option key={p.id} value={p.id}>
            {p.label}
          </option>
        ))}
        <option value="custom">{customLabel(limits)} (the limits below)</option>
      </select>
    </div>
  );
}
