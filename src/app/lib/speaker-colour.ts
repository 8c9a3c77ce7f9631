/**
 * One colour a speaker, the same in the timeline, the transcript and the legend, so that turns
 * can be followed at a glance. Each scale is turned around in the dark theme (index.css), so
 * the chip's dark text on its light background keeps its contrast there too.
 */
export interface SpeakerColour {
  /** A chip: light background, dark text (contrast well above 4.5:1). */
  chip: string;
  /** A block or swatch: the saturated tone, with a darker edge. */
  fill: string;
}

const SPEAKER_COLOURS: readonly SpeakerColour[] = [
  { chip: 'bg-indigo-100 text-indigo-900', fill: 'bg-indigo-500 ring-indigo-700' },
  { chip: 'bg-emerald-100 text-emerald-900', fill: 'bg-emerald-500 ring-emerald-700' },
  { chip: 'bg-amber-100 text-amber-900', fill: 'bg-amber-500 ring-amber-700' },
  { chip: 'bg-rose-100 text-rose-900', fill: 'bg-rose-500 ring-rose-700' },
  { chip: 'bg-sky-100 text-sky-900', fill: 'bg-sky-500 ring-sky-700' },
  { chip: 'bg-violet-100 text-violet-900', fill: 'bg-violet-500 ring-violet-700' },
];

/**
 * The colour of a speaker by its label: `speaker_<n>` takes the n-th colour (diarization
 * numbers speakers in order of first appearance, so the first ones never share a colour); any
 * other label, one chosen by its text.
 */
export function speakerColours(speaker: string): SpeakerColour {
  const numbered = /^speaker_(\d+)$/.exec(speaker)?.[1];
  let n = 0;
  if (numbered) n = Number(numbered);
  else for (const c of speaker) n = (n * 31 + c.charCodeAt(0)) % 997;
  return SPEAKER_COLOURS[n % SPEAKER_COLOURS.length] as SpeakerColour;
}

/** A speaker's chip classes (background and text). */
export function speakerColour(speaker: string): string {
  return speakerColours(speaker).chip;
}
