import { formatTimecode } from '../format/timecode';
import { ms, type SubtitleCue } from './cue';
import { parseSubtitles } from './parse';
import type { SubtitleProfile } from './profiles';
import { wrapLines } from './wrap';

export type FindingKind =
  | 'too-many-lines'
  | 'line-too-long'
  | 'reading-speed'
  | 'too-short'
  | 'too-long'
  | 'overlap'
  | 'gap';

/** A change that fixes a finding in one step. */
export type SubtitleFix =
  | { action: 'set-end'; end: number; label: string }
  | { action: 'set-start'; start: number; label: string }
  | { action: 'rewrap'; lines: string[]; label: string }
  | { action: 'merge'; label: string };

export interface Finding {
  /** 1-based, as SubRip numbers cues. */
  cue: number;
  start: number;
  end: number;
  kind: FindingKind;
  /** A sentence a user reads. */
  message: string;
  fix?: SubtitleFix;
}

/** `HH:MM:SS,mmm` of a time in milliseconds. */
const clock = (t: number) => formatTimecode(Math.max(0, t), ',');
/** Seconds as a user reads them: up to 3 decimals, no trailing zeros. */
const secs = (t: number) => String(Math.round(t) / 1000);
const num = (n: number) => String(Math.round(n * 1000) / 1000);

/** Characters on screen: a line break counts as one, as the space it replaces. */
export const cueChars = (cue: SubtitleCue) => cue.lines.join('\n').length;

const setEnd = (end: number, from: number): SubtitleFix => ({
  action: 'set-end',
  end: end / 1000,
  label: end > from ? `Extend the end to ${clock(end)}.` : `End it at ${clock(end)}.`,
});

/**
 * Every place the cues break the profile's limits, in cue order. A finding's fix is offered
 * only when the cues it touches come out better: the finding gone, and no finding there that
 * was not there before (a merge that makes a line too long, or a cue too fast to read, is no
 * fix).
 */
export function checkCues(cues: readonly SubtitleCue[], profile: SubtitleProfile): Finding[] {
  return findingsOf(cues, profile).map((finding) => {
    if (finding.fix === undefined || improves(cues, finding, profile)) return finding;
    const rest: Finding = { ...finding };
    delete rest.fix;
    return rest;
  });
}

/**
 * Whether a finding's fix leaves the cues around it with fewer findings and none of a kind
 * there was not as much of before. Checked on the cues a fix can change and their neighbours
 * (the cue before to the second after), the same cues before and after.
 */
function improves(cues: readonly SubtitleCue[], finding: Finding, profile: SubtitleProfile) {
  const i = finding.cue - 1;
  const from = Math.max(0, i - 1);
  const fixed = applyFix(cues, finding, profile);
  const removed = cues.length - fixed.length;
  const count = (list: readonly Finding[]) => {
    const counts = new Map<FindingKind, number>();
    for (const f of list) counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
    return counts;
  };
  const before = findingsOf(cues.slice(from, i + 3), profile);
  const after = findingsOf(fixed.slice(from, i + 3 - removed), profile);
  const was = count(before);
  for (const [kind, n] of count(after)) if (n > (was.get(kind) ?? 0)) return false;
  return after.length < before.length;
}

/** The findings of `checkCues`, each with the fix that would address it, tried or not. */
function findingsOf(cues: readonly SubtitleCue[], profile: SubtitleProfile): Finding[] {
  const findings: Finding[] = [];
  const gap = ms(profile.gapSeconds);
  const minMs = ms(profile.minSeconds);
  const maxMs = ms(profile.maxSeconds);
  cues.forEach((cue, i) => {
    const begin = ms(cue.begin);
    const end = ms(cue.end);
    const duration = end - begin;
    const next = cues[i + 1];
    const previous = cues[i - 1];
    const nextBegin = next ? ms(next.begin) : Infinity;
    // The latest the cue may end: the next cue's start less the gap.
    const room = nextBegin - gap;
    const at = `Cue ${i + 1} (${clock(begin)})`;
    const add = (kind: FindingKind, message: string, fix?: SubtitleFix) =>
      findings.push({
        cue: i + 1,
        start: cue.begin,
        end: cue.end,
        kind,
        message,
        ...(fix ? { fix } : {}),
      });
    const rewrap = () => {
      const lines = wrapLines(cue.lines, profile.maxLineChars, profile.maxLines);
      return lines ? { action: 'rewrap' as const, lines, label: 'Re-wrap the lines.' } : undefined;
    };

    if (cue.lines.length > profile.maxLines) {
      add(
        'too-many-lines',
        `${at} has ${cue.lines.length} lines; the profile allows ${profile.maxLines}.`,
        rewrap(),
      );
    }
    const longest = Math.max(0, ...cue.lines.map((line) => line.length));
    if (longest > profile.maxLineChars) {
      add(
        'line-too-long',
        `${at} has a line of ${longest} characters; the profile allows ${profile.maxLineChars}.`,
        rewrap(),
      );
    }
    const chars = cueChars(cue);
    if (duration > 0 && chars * 1000 > profile.maxCharsPerSecond * duration + 1e-6) {
      const needed = Math.ceil((chars / profile.maxCharsPerSecond) * 1000);
      const earliest = previous ? ms(previous.end) + gap : 0;
      let fix: SubtitleFix | undefined;
      if (begin + needed <= Math.min(room, begin + maxMs)) fix = setEnd(begin + needed, end);
      else if (end - needed >= earliest && needed <= maxMs) {
        fix = {
          action: 'set-start',
          start: (end - needed) / 1000,
          label: `Start it at ${clock(end - needed)}.`,
        };
      }
      const speed = (chars / duration) * 1000;
      add(
        'reading-speed',
        `${at} reads at ${speed.toFixed(1)} characters a second; the profile allows ${num(profile.maxCharsPerSecond)}.`,
        fix,
      );
    }
    if (duration < minMs) {
      let fix: SubtitleFix | undefined;
      if (begin + minMs <= room) fix = setEnd(begin + minMs, end);
      else if (next && ms(next.end) - begin <= maxMs) {
        fix = { action: 'merge', label: 'Merge it with the next cue.' };
      }
      add(
        'too-short',
        `${at} is on screen for ${secs(duration)} seconds; the profile asks for at least ${num(profile.minSeconds)}.`,
        fix,
      );
    }
    if (duration > maxMs) {
      add(
        'too-long',
        `${at} is on screen for ${secs(duration)} seconds; the profile allows at most ${num(profile.maxSeconds)}.`,
        setEnd(begin + maxMs, end),
      );
    }
    if (next && nextBegin < end) {
      add(
        'overlap',
        `${at} overlaps the next cue by ${secs(end - nextBegin)} seconds.`,
        room > begin ? setEnd(room, end) : undefined,
      );
    } else if (next && nextBegin - end < gap) {
      add(
        'gap',
        `${at} ends ${secs(nextBegin - end)} seconds before the next cue; the profile asks for a gap of at least ${secs(gap)} seconds.`,
        room > begin ? setEnd(room, end) : undefined,
      );
    }
  });
  return findings;
}

/** The findings of SubRip or WebVTT text, and the cues read from it. */
export function checkSubtitles(
  text: string,
  profile: SubtitleProfile,
): { cues: SubtitleCue[]; findings: Finding[] } {
  const cues = parseSubtitles(text);
  return { cues, findings: checkCues(cues, profile) };
}

/** The cues with a finding's fix made; the same cues when the finding has none. */
export function applyFix(
  cues: readonly SubtitleCue[],
  finding: Finding,
  profile: SubtitleProfile,
): SubtitleCue[] {
  const fix = finding.fix;
  const index = finding.cue - 1;
  const cue = cues[index];
  const out = cues.map((c) => ({ ...c, lines: [...c.lines] }));
  if (fix === undefined || cue === undefined) return out;
  switch (fix.action) {
    case 'set-end':
      out[index] = { ...cue, lines: [...cue.lines], end: fix.end };
      break;
    case 'set-start':
      out[index] = { ...cue, lines: [...cue.lines], begin: fix.start };
      break;
    case 'rewrap':
      out[index] = { ...cue, lines: [...fix.lines] };
      break;
    case 'merge': {
      const next = cues[index + 1];
      if (next === undefined) break;
      const lines = [...cue.lines, ...next.lines];
      out.splice(index, 2, {
        begin: cue.begin,
        end: next.end,
        lines: wrapLines(lines, profile.maxLineChars, profile.maxLines) ?? lines,
      });
      break;
    }
  }
  return out;
}
