/**
 * A voice: a person's name and what their speech sounds like to a speaker-embedding model, kept
 * so that later recordings can name that person without being told.
 *
 * A voice is personal data (a biometric trait): it is stored only where the person puts it
 * (their browser, or a file they name) and never sent anywhere.
 */

/** A speaker found in one recording, as the voice comparison sees it. */
export interface SpeakerVoice {
  /** The speaker's label in the recording's result (`speaker_0`, ...). */
  speaker: string;
  /**
   * Unit length: the centroid of the embeddings of the stretches where the speaker talks alone
   * (the cluster diarization formed), so that every part of their speech counts once.
   */
  embedding: Float32Array;
  /** Seconds the speaker is heard in the recording. */
  seconds: number;
  /** The embedding model the embedding came from. */
  model: string;
}

export interface Voice {
  name: string;
  /** The embedding model it was made with: a voice is compared only with the same model's. */
  model: string;
  /** Unit length (see `rememberVoice` for how recordings are combined). */
  embedding: number[];
  /** Seconds of speech it rests on, over all the recordings it was taken from. */
  seconds: number;
  /** How many recordings it was taken from. */
  recordings: number;
  /** When it was first made and last strengthened (ISO 8601). */
  created: string;
  updated: string;
}

/**
 * Names are the same when they differ only in case or spacing ("anna " is "Anna"). One collator
 * for every comparison: making one a call (what `localeCompare` with options does) made a file
 * of a thousand voices take seconds to read.
 */
const names = new Intl.Collator(undefined, { sensitivity: 'accent' });
export function sameVoiceName(a: string, b: string): boolean {
  return names.compare(cleanVoiceName(a), cleanVoiceName(b)) === 0;
}

/**
 * A name as it is kept and shown: control characters (an escape sequence a terminal would
 * obey, a line break) made spaces, spaces run together, trimmed.
 */
export function cleanVoiceName(name: string): string {
  return name
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The most characters a voice's name may have: a person's full name fits many times over. */
export const MAX_VOICE_NAME_CHARS = 100;

/** A key equal for names `sameVoiceName` finds the same, for looking names up at once. */
export function voiceNameKey(name: string): string {
  return cleanVoiceName(name).normalize('NFC').toLocaleLowerCase().replace(/ß/g, 'ss');
}

export function unitLength(values: ArrayLike<number>): number[] {
  let n = 0;
  for (let i = 0; i < values.length; i++) n += values[i]! * values[i]!;
  n = Math.sqrt(n) || 1;
  return Array.from(values, (v) => v / n);
}

/**
 * The voices with `speaker` remembered as `name`. A name not yet stored (for this model) makes
 * a new voice. A name already stored is strengthened: its embedding becomes the mean of the
 * old one and the new one weighted by the seconds each rests on, made unit length again, so
 * that a long recording is not outweighed by a short one and the voice grows steadier with
 * every recording rather than following the last.
 */
export function rememberVoice(
  voices: readonly Voice[],
  name: string,
  speaker: SpeakerVoice,
  now: Date,
): Voice[] {
  const clean = name.replace(/\s+/g, ' ').trim();
  const at = now.toISOString();
  const index = voices.findIndex((v) => v.model === speaker.model && sameVoiceName(v.name, clean));
  if (index < 0) {
    return [
      ...voices,
      {
        name: clean,
        model: speaker.model,
        embedding: unitLength(speaker.embedding),
        seconds: speaker.seconds,
        recordings: 1,
        created: at,
        updated: at,
      },
    ];
  }
  const old = voices[index]!;
  const total = old.seconds + speaker.seconds;
  // A voice resting on no seconds at all (never made here) counts as one second.
  const oldWeight = old.seconds > 0 ? old.seconds : 1;
  const newWeight = speaker.seconds > 0 ? speaker.seconds : 1;
  const fresh = unitLength(speaker.embedding);
  const mixed = unitLength(
    old.embedding.map((v, i) => v * oldWeight + (fresh[i] ?? 0) * newWeight),
  );
  const strengthened: Voice = {
    ...old,
    embedding: mixed,
    seconds: total,
    recordings: old.recordings + 1,
    updated: at,
  };
  return voices.map((v, i) => (i === index ? strengthened : v));
}

/** The voices with one renamed; null when another voice of its model already has the name. */
export function renameVoice(voices: readonly Voice[], index: number, name: string): Voice[] | null {
  const clean = name.replace(/\s+/g, ' ').trim();
  const voice = voices[index];
  if (voice === undefined || clean === '') return null;
  const taken = voices.some(
    (v, i) => i !== index && v.model === voice.model && sameVoiceName(v.name, clean),
  );
  if (taken) return null;
  return voices.map((v, i) => (i === index ? { ...v, name: clean } : v));
}
