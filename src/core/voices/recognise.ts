import type { SpeakerVoice, Voice } from './voice';

/**
 * How close a speaker must be to a voice, as the cosine distance between their unit-length
 * embeddings (0 the same direction, 1 unrelated). Model-dependent: measured for each embedding
 * model (`npm run eval:voices`).
 */
export interface VoiceThresholds {
  /** At or under it, the speaker is given the voice's name. */
  match: number;
  /** At or under it (and over `match`), the name is offered, not given. */
  near: number;
}

export interface SpeakerRecognition {
  speaker: string;
  /** The voice's name. */
  name: string;
  distance: number;
  /** True: the name is given; false: it is offered ("Anna?"). */
  sure: boolean;
}

function cosineDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * (b[i] ?? 0);
    na += a[i]! * a[i]!;
    nb += (b[i] ?? 0) * (b[i] ?? 0);
  }
  return 1 - dot / ((Math.sqrt(na) || 1) * (Math.sqrt(nb) || 1));
}

/**
 * The least-cost assignment of rows to columns of a square cost matrix (the Hungarian method,
 * with potentials): `result[row]` is the row's column.
 */
export function leastCostAssignment(cost: readonly (readonly number[])[]): number[] {
  const n = cost.length;
  const u = new Array<number>(n + 1).fill(0);
  const v = new Array<number>(n + 1).fill(0);
  const owner = new Array<number>(n + 1).fill(0); // column -> row (1-based; 0 none)
  const way = new Array<number>(n + 1).fill(0);
  for (let row = 1; row <= n; row++) {
    owner[0] = row;
    let column = 0;
    const least = new Array<number>(n + 1).fill(Infinity);
    const used = new Array<boolean>(n + 1).fill(false);
    do {
      used[column] = true;
      const r = owner[column]!;
      let delta = Infinity;
      let next = 0;
      for (let c = 1; c <= n; c++) {
        if (used[c]) continue;
        const reduced = cost[r - 1]![c - 1]! - u[r]! - v[c]!;
        if (reduced < least[c]!) {
          least[c] = reduced;
          way[c] = column;
        }
        if (least[c]! < delta) {
          delta = least[c]!;
          next = c;
        }
      }
      for (let c = 0; c <= n; c++) {
        if (used[c]) {
          u[owner[c]!] = u[owner[c]!]! + delta;
          v[c] = v[c]! - delta;
        } else {
          least[c] = least[c]! - delta;
        }
      }
      column = next;
    } while (owner[column] !== 0);
    do {
      const previous = way[column]!;
      owner[column] = owner[previous]!;
      column = previous;
    } while (column !== 0);
  }
  const result = new Array<number>(n).fill(-1);
  for (let c = 1; c <= n; c++) if (owner[c]! > 0) result[owner[c]! - 1] = c - 1;
  return result;
}

/**
 * A voice of the speakers' model whose embedding has another length than theirs, with the
 * sentence that refuses it: it could never be compared, and would silently never name anyone.
 */
export function voiceOfOtherLength(
  speakers: readonly SpeakerVoice[],
  voices: readonly Voice[],
): string | null {
  for (const s of speakers) {
    const odd = voices.find(
      (v) => v.model === s.model && v.embedding.length !== s.embedding.length,
    );
    if (odd !== undefined)
      return `The voice “${odd.name}” has an embedding of ${odd.embedding.length} numbers, where the speaker model "${s.model}" makes ${s.embedding.length}: it cannot be compared. Remember it again from a recording.`;
  }
  return null;
}

/**
 * Which speakers of one recording are which stored voices. Only voices of the speakers' own
 * embedding model are compared. One voice names at most one speaker and one speaker takes at
 * most one voice: of all such pairings, the one whose distances add up least (a speaker and a
 * voice left unpaired count `near` each, so any pairing within `near` is preferred to none), so that a
 * speaker who resembles two voices does not take the one a closer speaker needs.
 */
export function recogniseSpeakers(
  speakers: readonly SpeakerVoice[],
  voices: readonly Voice[],
  thresholds: VoiceThresholds,
): SpeakerRecognition[] {
  const candidates = voices.filter((v) => speakers.some((s) => s.model === v.model));
  if (speakers.length === 0 || candidates.length === 0) return [];
  const distances = speakers.map((s) =>
    candidates.map((v) => (v.model === s.model ? cosineDistance(s.embedding, v.embedding) : 2)),
  );
  // Square: each speaker may also take a "nobody" column, each voice a "nobody" row.
  const n = speakers.length + candidates.length;
  const never = thresholds.near * n + n + 1;
  const cost = Array.from({ length: n }, (_, i) =>
    Array.from({ length: n }, (_, j) => {
      if (i < speakers.length && j < candidates.length) {
        const d = distances[i]![j]!;
        return d <= thresholds.near ? d : never;
      }
      if (i < speakers.length) return thresholds.near; // speaker with nobody
      if (j < candidates.length) return thresholds.near; // voice with nobody
      return 0;
    }),
  );
  const assigned = leastCostAssignment(cost);
  const out: SpeakerRecognition[] = [];
  speakers.forEach((s, i) => {
    const j = assigned[i]!;
    if (j < 0 || j >= candidates.length) return;
    const distance = distances[i]![j]!;
    if (distance > thresholds.near) return;
    out.push({
      speaker: s.speaker,
      name: candidates[j]!.name,
      distance,
      sure: distance <= thresholds.match,
    });
  });
  return out;
}

/** The names given (not offered), by speaker label, for a rename of the result. */
export function recognisedNames(
  recognitions: readonly SpeakerRecognition[],
): Record<string, string> {
  return Object.fromEntries(recognitions.filter((r) => r.sure).map((r) => [r.speaker, r.name]));
}
