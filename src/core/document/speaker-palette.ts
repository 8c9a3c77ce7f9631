/**
 * Speakers' colours in documents: a light background and a dark text of the same hue, the
 * pairs the app's chips use (contrast well above 4.5:1), so a speaker keeps their colour from
 * the app to the page.
 */
export interface SpeakerInk {
  background: string;
  text: string;
}

const PALETTE: readonly SpeakerInk[] = [
  { background: '#e0e7ff', text: '#312e81' },
  { background: '#d1fae5', text: '#064e3b' },
  { background: '#fef3c7', text: '#78350f' },
  { background: '#ffe4e6', text: '#881337' },
  { background: '#e0f2fe', text: '#0c4a6e' },
  { background: '#ede9fe', text: '#4c1d95' },
];

/** `speaker_<n>` takes the n-th colour; any other label one chosen by its text. */
export function speakerInk(label: string): SpeakerInk {
  const speaker = label.slice(label.indexOf('|') + 1);
  const numbered = /^speaker_(\d+)$/.exec(speaker)?.[1];
  let n = 0;
  if (numbered) n = Number(numbered);
  else for (const c of speaker) n = (n * 31 + c.charCodeAt(0)) % 997;
  return PALETTE[n % PALETTE.length] as SpeakerInk;
}
