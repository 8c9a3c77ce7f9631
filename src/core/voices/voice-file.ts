import {
  cleanVoiceName,
  MAX_VOICE_NAME_CHARS,
  unitLength,
  voiceNameKey,
  sameVoiceName,
  type Voice,
} from './voice';

/**
 * The most voices a file may hold: far more than a team names, and few enough that a server
 * reads the file in well under a second at start (each is a few KB of numbers).
 */
export const MAX_VOICES = 10_000;

/**
 * The voices file: the same format wherever voices are kept or moved (the page's export and
 * import, `murmur voices`, `murmur serve --voices`), versioned so that a later Murmur can read
 * an older file and an older one refuses a newer file instead of misreading it.
 */
export const VOICES_FORMAT = 'murmur-voices';
export const VOICES_VERSION = 1;

export interface VoicesFile {
  format: typeof VOICES_FORMAT;
  version: typeof VOICES_VERSION;
  voices: Voice[];
}

export function voicesFile(voices: readonly Voice[]): VoicesFile {
  return { format: VOICES_FORMAT, version: VOICES_VERSION, voices: [...voices] };
}

/** The file's text: JSON, two-space indented, each embedding on one line. */
export function voicesFileText(voices: readonly Voice[]): string {
  const text = JSON.stringify(voicesFile(voices), null, 2);
  // Embeddings are hundreds of numbers: one line each keeps the file readable.
  return (
    text.replace(/"embedding": \[([^\]]*)\]/g, (_, inner: string) => {
      const numbers = inner
        .split(',')
        .map((n) => n.trim())
        .join(', ');
      return `"embedding": [${numbers}]`;
    }) + '\n'
  );
}

/** Why a text is not a voices file this Murmur reads, in one sentence. */
export class VoicesFileError extends Error {
  override name = 'VoicesFileError';
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function voiceProblem(value: unknown, position: number): string | null {
  const which = `Voice ${position}`;
  if (!isRecord(value)) return `${which} is not a voice.`;
  const { name, model, embedding, seconds, recordings, created, updated } = value;
  if (typeof name !== 'string' || cleanVoiceName(name) === '') return `${which} has no name.`;
  if ([...cleanVoiceName(name)].length > MAX_VOICE_NAME_CHARS)
    return `${which} has a name longer than ${MAX_VOICE_NAME_CHARS} characters.`;
  const called = `The voice “${cleanVoiceName(name)}”`;
  if (typeof model !== 'string' || model === '') return `${called} does not say its model.`;
  if (
    !Array.isArray(embedding) ||
    embedding.length < 2 ||
    !embedding.every((n) => typeof n === 'number' && Number.isFinite(n)) ||
    embedding.every((n) => n === 0)
  )
    return `${called} has no embedding (a list of numbers).`;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0)
    return `${called} does not say how many seconds it rests on.`;
  if (typeof recordings !== 'number' || !Number.isInteger(recordings) || recordings < 1)
    return `${called} does not say how many recordings it was taken from.`;
  for (const [field, at] of [
    ['created', created],
    ['updated', updated],
  ] as const)
    if (typeof at !== 'string' || Number.isNaN(Date.parse(at)))
      return `${called} has no date it was ${field}.`;
  return null;
}

/**
 * The voices a file's text holds, or a `VoicesFileError` saying in one sentence why it cannot
 * be read (the host names the file before it). Embeddings are made unit length again, so that
 * a file edited by hand still compares rightly.
 */
export function readVoicesFile(text: string): Voice[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new VoicesFileError('is not a voices file: it is not JSON.');
  }
  if (!isRecord(value) || value.format !== VOICES_FORMAT)
    throw new VoicesFileError(
      `is not a voices file: it does not say "format": "${VOICES_FORMAT}".`,
    );
  if (typeof value.version !== 'number' || !Number.isInteger(value.version))
    throw new VoicesFileError('is not a voices file: it does not say its version.');
  if (value.version > VOICES_VERSION)
    throw new VoicesFileError(
      `is a voices file of version ${value.version}, newer than this Murmur reads (version ${VOICES_VERSION}): update Murmur.`,
    );
  if (value.version < 1)
    throw new VoicesFileError(`is not a voices file: version ${value.version} does not exist.`);
  if (!Array.isArray(value.voices))
    throw new VoicesFileError('is not a voices file: it has no list of voices.');
  if (value.voices.length > MAX_VOICES)
    throw new VoicesFileError(
      `holds ${value.voices.length.toLocaleString('en-US')} voices, more than the ${MAX_VOICES.toLocaleString('en-US')} a voices file may hold.`,
    );
  const voices: Voice[] = [];
  // Each name once a model, found at once (a file of thousands is read in linear time).
  const seen = new Map<string, Voice>();
  /** The length of the embeddings each model's voices have, from its first voice. */
  const lengths = new Map<string, { length: number; name: string }>();
  value.voices.forEach((raw: unknown, i) => {
    const problem = voiceProblem(raw, i + 1);
    if (problem !== null) throw new VoicesFileError(`cannot be read: ${problem}`);
    const v = raw as Voice;
    const name = cleanVoiceName(v.name);
    const key = `${v.model}\u0000${voiceNameKey(name)}`;
    const twin = seen.get(key);
    if (twin !== undefined && sameVoiceName(twin.name, name))
      throw new VoicesFileError(
        `cannot be read: two voices are called “${twin.name}” for the same model.`,
      );
    // A voice whose embedding is not as long as the others of its model would never match.
    const first = lengths.get(v.model);
    if (first !== undefined && first.length !== v.embedding.length)
      throw new VoicesFileError(
        `cannot be read: the voice “${name}” has an embedding of ${v.embedding.length} numbers, where “${first.name}” of the same model has ${first.length}.`,
      );
    if (first === undefined) lengths.set(v.model, { length: v.embedding.length, name });
    const voice: Voice = {
      name,
      model: v.model,
      embedding: unitLength(v.embedding),
      seconds: v.seconds,
      recordings: v.recordings,
      created: v.created,
      updated: v.updated,
    };
    seen.set(key, voice);
    voices.push(voice);
  });
  return voices;
}

/**
 * Voices brought in from a file, added to those already kept: a name the file shares with a
 * kept voice of the same model is taken from the file (it is what the person chose to import).
 */
export function mergeVoices(kept: readonly Voice[], imported: readonly Voice[]): Voice[] {
  const stays = kept.filter(
    (k) => !imported.some((i) => i.model === k.model && sameVoiceName(i.name, k.name)),
  );
  return [...stays, ...imported];
}
