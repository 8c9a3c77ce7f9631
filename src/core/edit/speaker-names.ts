import {
  SPEAKER_NOT_ACTIVATED,
  type Segment,
  type SpeakerSpan,
  type TranscriptionResponse,
} from '../contract/response';
import type { OutputFormat } from '../contract/request';
import { renderPrediction } from '../format/prediction';

/**
 * Names a person gives the speakers diarization found, by label (`speaker_0` -> `Anna`). The
 * labels stay in the segments while the transcript is edited; the names replace them wherever
 * the speaker is shown and in every download.
 */
export type SpeakerNames = Readonly<Record<string, string>>;

export const NO_NAMES: SpeakerNames = Object.freeze({});

/** The speakers of a transcript, in order of first appearance (none without diarization). */
export function speakerLabels(segments: readonly Pick<Segment, 'speaker'>[]): string[] {
  const labels = new Set<string>();
  for (const s of segments) if (s.speaker !== SPEAKER_NOT_ACTIVATED) labels.add(s.speaker);
  return [...labels];
}

/** The name a speaker is shown by: the one given, else its label. */
export function displayName(label: string, names: SpeakerNames): string {
  const name = names[label]?.trim() ?? '';
  return name === '' ? label : name;
}

const sameName = (a: string, b: string) =>
  a.trim().localeCompare(b.trim(), undefined, { sensitivity: 'accent' }) === 0;

/**
 * Why a name cannot be given to a speaker, or null when it can. An empty name is allowed (the
 * speaker goes back to its label); a name another speaker is shown by is not, since the
 * downloads would then merge two people into one.
 */
export function nameProblem(
  label: string,
  name: string,
  labels: readonly string[],
  names: SpeakerNames,
): string | null {
  const wanted = name.trim() === '' ? label : name.trim();
  const other = labels.find((l) => l !== label && sameName(displayName(l, names), wanted));
  return other === undefined
    ? null
    : `Another speaker is already called “${displayName(other, names)}”. Choose a different name.`;
}

/** The names with one speaker renamed; an empty name (or the label itself) removes it. */
export function renameSpeaker(names: SpeakerNames, label: string, name: string): SpeakerNames {
  const clean = name.replace(/\s+/g, ' ').trim();
  const rest = Object.fromEntries(Object.entries(names).filter(([l]) => l !== label));
  return clean === '' || clean === label ? rest : { ...rest, [label]: clean };
}

/** Which speaker a typed name means: the label shown by that name, else the name itself. */
export function labelFor(name: string, labels: readonly string[], names: SpeakerNames): string {
  const clean = name.trim();
  return labels.find((l) => sameName(displayName(l, names), clean)) ?? clean;
}

function named<T extends { speaker: string }>(items: readonly T[], names: SpeakerNames): T[] {
  return items.map((item) =>
    item.speaker === SPEAKER_NOT_ACTIVATED || names[item.speaker] === undefined
      ? item
      : { ...item, speaker: displayName(item.speaker, names) },
  );
}

/** Segments with each speaker's label replaced by its name. */
export function namedSegments(segments: readonly Segment[], names: SpeakerNames): Segment[] {
  return named(segments, names);
}

/**
 * The response as the names make it read: the segments', the speaker mapping's and the
 * sentences' speakers (with their sentiment shares) carry the names, and `prediction` (in the
 * format it was asked in) follows.
 */
export function namedResponse(
  response: TranscriptionResponse,
  names: SpeakerNames,
  format: OutputFormat,
): TranscriptionResponse {
  if (Object.keys(names).length === 0) return response;
  const transcription = namedSegments(response.prediction_raw.transcription, names);
  const raw = response.prediction_raw;
  const mapping: SpeakerSpan[] = named(raw.speaker_mapping, names);
  return {
    ...response,
    prediction: renderPrediction(transcription, format),
    prediction_raw: {
      ...raw,
      transcription,
      speaker_mapping: mapping,
      ...(raw.emotions ? { emotions: named(raw.emotions, names) } : {}),
      ...(raw.emotions_summary
        ? {
            emotions_summary: {
              ...raw.emotions_summary,
              speakers: named(raw.emotions_summary.speakers, names),
            },
          }
        : {}),
    },
  };
}
