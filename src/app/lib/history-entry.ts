import {
  SPEAKER_NOT_ACTIVATED,
  type Segment,
  type TranscriptionResponse,
} from '../../core/contract/response';
import { languageLabel } from './language-label';
import type { SpeakerNames } from '../../core/edit/speaker-names';
import type { ResultVoices } from './result-voices';
import type { FormValues } from './form-fields';

/** The request's options as the user set them (the file itself is kept apart, if at all). */
export type RequestOptions = Omit<FormValues, 'file'>;

/** Why an entry's media was not kept with it. */
export type MediaLeftOut = 'not-allowed' | 'too-large' | 'no-room' | 'refused' | 'no-file';

/** One step of an entry's corrections: the segments and the names given to their speakers. */
export interface EntryVersion {
  segments: Segment[];
  names: SpeakerNames;
}

/**
 * The corrections made to an entry: its latest undo steps, oldest first, and the one shown.
 * Kept with the entry, so that reopening it brings back the corrected text, its speakers'
 * names and the steps to undo them.
 */
export interface EntryEdits {
  versions: EntryVersion[];
  index: number;
}

/** A finished transcription, as kept in the history. */
export interface HistoryEntry {
  id: string;
  /** When it finished (ms since the epoch). */
  finishedAt: number;
  /** The name shown and used for downloads. */
  name: string;
  fileName: string;
  /** Bytes, or null for a URL. */
  fileSize: number | null;
  /** Seconds of media. */
  duration: number;
  options: RequestOptions;
  response: TranscriptionResponse;
  /** Whether the media is stored beside the entry, and if not, why. */
  media: { kept: true; type: string; size: number } | { kept: false; reason: MediaLeftOut };
  /** Absent until the transcript is corrected (and in entries kept before corrections were). */
  edits?: EntryEdits;
  /** What the transcription fetched and from where, as its Network note said (absent in older entries). */
  network?: string;
  /** Where its recogniser ran ('webgpu' or 'wasm'; absent in older entries). */
  device?: string;
  /**
   * Its speakers' embeddings and the stored voices they were found to be, so that a voice can be
   * remembered from it when reopened (absent without speakers, and in older entries). Personal
   * data: never part of a download.
   */
  voices?: ResultVoices;
}

/** The options without the file, which is kept (or not) as the media. */
export function requestOptions(values: FormValues): RequestOptions {
  const options: Partial<FormValues> = { ...values };
  delete options.file;
  return options as RequestOptions;
}

/** The entry's segments as last shown: corrected, or as recognised when never corrected. */
export function entrySegments(entry: HistoryEntry): readonly Segment[] {
  return (
    entry.edits?.versions[entry.edits.index]?.segments ??
    entry.response.prediction_raw.transcription
  );
}

/**
 * What an entry found, to tell it from others of the same name: the languages spoken, the
 * speakers (when they were told apart) and the segments, as corrected.
 */
export function entryFindings(entry: HistoryEntry): string {
  const segments = entrySegments(entry);
  const languages = [...new Set(segments.map((s) => s.source_language ?? s.language))];
  const speakers = new Set(
    segments.map((s) => s.speaker).filter((s) => s !== SPEAKER_NOT_ACTIVATED),
  ).size;
  const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
  return [
    languages.map(languageLabel).join(', '),
    speakers > 0 ? count(speakers, 'speaker', 'speakers') : '',
    count(segments.length, 'segment', 'segments'),
  ]
    .filter(Boolean)
    .join(' · ');
}

/** All the words of a result as corrected, original and translated, as one searchable text. */
export function entryText(entry: HistoryEntry): string {
  const names = Object.values(entry.edits?.versions[entry.edits.index]?.names ?? {});
  return [
    ...entrySegments(entry).map((s) => `${s.transcription} ${s.source_transcription ?? ''}`),
    ...names,
  ].join(' ');
}

/** Case- and accent-insensitive form used for searching. */
function folded(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * Entries whose name or text holds every word of the query, newest first. An empty query
 * gives them all.
 */
export function searchHistory(entries: readonly HistoryEntry[], query: string): HistoryEntry[] {
  const words = folded(query).split(/\s+/).filter(Boolean);
  const found = entries.filter((entry) => {
    if (words.length === 0) return true;
    const text = folded(`${entry.name} ${entry.fileName} ${entryText(entry)}`);
    return words.every((w) => text.includes(w));
  });
  return found.sort((a, b) => b.finishedAt - a.finishedAt);
}

/** What the history takes: the results as stored text, and the media. */
export function historySize(list: readonly HistoryEntry[]): number {
  let bytes = 0;
  for (const entry of list) {
    bytes += JSON.stringify(entry.response).length + JSON.stringify(entry.options).length;
    // Undo steps share the segments they did not change: what is stored is near one copy.
    if (entry.edits) bytes += JSON.stringify(entry.edits.versions.at(-1)).length;
    if (entry.media.kept) bytes += entry.media.size;
  }
  return bytes;
}

/** Why an entry has no player, in the user's words. */
export const MEDIA_LEFT_OUT: Record<MediaLeftOut, string> = {
  'not-allowed': 'media not kept (turned off)',
  'too-large': 'media too large to keep',
  'no-room': 'media not kept: storage is nearly full',
  refused: 'media not kept: the browser refused the storage',
  'no-file': 'from a link: no media kept',
};

/** A byte count as people read it (1.4 MB). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(value < 100 ? 1 : 0)} ${units[unit]}`;
}
