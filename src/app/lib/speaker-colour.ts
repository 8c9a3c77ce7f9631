const SPEAKER_COLOURS = [
  'bg-indigo-100 text-indigo-900',
  'bg-emerald-100 text-emerald-900',
  'bg-amber-100 text-amber-900',
  'bg-rose-100 text-rose-900',
  'bg-sky-100 text-sky-900',
  'bg-violet-100 text-violet-900',
];

/** A colour per speaker, so that turns can be followed at a glance. */
export function speakerColour(speaker: string): string {
  let n = 0;
  for (const c of speaker) n = (n * 31 + c.charCodeAt(0)) % 997;
  const numbered = /(\d+)$/.exec(speaker)?.[1];
  return SPEAKER_COLOURS[(numbered ? Number(numbered) : n) % SPEAKER_COLOURS.length] as string;
}
