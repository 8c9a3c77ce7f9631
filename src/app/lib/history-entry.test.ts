import { describe, expect, it } from 'vitest';
import type { Segment, TranscriptionResponse } from '../../core/contract/response';
import { DEFAULT_VALUES } from './form-fields';
import {
  entryFindings,
  entrySegments,
  formatBytes,
  requestOptions,
  searchHistory,
  type HistoryEntry,
} from './history-entry';

function segment(text: string, source?: string): Segment {
  return {
    words: [],
    transcription: text,
    language: 'en',
    time_begin: 0,
    time_end: 1,
    speaker: 'speaker_not_activated',
    channel: 'channel_0',
    ...(source === undefined ? {} : { source_transcription: source }),
  };
}

function entry(id: string, finishedAt: number, segments: Segment[], name = id): HistoryEntry {
  const response = {
    prediction: '',
    prediction_raw: { transcription: segments, speaker_mapping: [] },
  } as unknown as TranscriptionResponse;
  return {
    id,
    finishedAt,
    name,
    fileName: `${name}.wav`,
    fileSize: 100,
    duration: 1,
    options: requestOptions(DEFAULT_VALUES),
    response,
    media: { kept: false, reason: 'not-allowed' },
  };
}

describe('the history', () => {
  const older = entry('a', 1000, [segment('The harbour opens at dawn')]);
  const newer = entry('b', 2000, [segment('Le café ferme tôt', 'The café closes early')]);
  const named = entry('c', 1500, [segment('nothing here')], 'Interview Zoë');

  it('lists every entry newest first for an empty query', () => {
    expect(searchHistory([older, named, newer], '  ').map((e) => e.id)).toEqual(['b', 'c', 'a']);
  });

  it('finds entries by a word of their text, ignoring case and accents', () => {
    expect(searchHistory([older, newer], 'HARBOUR').map((e) => e.id)).toEqual(['a']);
    expect(searchHistory([older, newer], 'cafe').map((e) => e.id)).toEqual(['b']);
  });

  it('searches the original beside a translation, and the name', () => {
    expect(searchHistory([older, newer], 'closes early').map((e) => e.id)).toEqual(['b']);
    expect(searchHistory([older, named], 'zoe').map((e) => e.id)).toEqual(['c']);
  });

  it('needs every word of the query', () => {
    expect(searchHistory([older, newer], 'harbour café')).toEqual([]);
  });

  it('finds and shows a corrected entry by its corrections and names, not what they replaced', () => {
    const recognised = [segment('their harbour opens at dawn')];
    const corrected = [segment('the harbour opens at dawn')];
    const edited: HistoryEntry = {
      ...entry('d', 3000, recognised),
      edits: {
        versions: [
          { segments: recognised, names: {} },
          { segments: corrected, names: {} },
          { segments: corrected, names: { speaker_0: 'Anna' } },
        ],
        index: 2,
      },
    };
    expect(entrySegments(edited)).toBe(corrected);
    expect(searchHistory([older, edited], 'anna').map((e) => e.id)).toEqual(['d']);
    expect(searchHistory([older, edited], 'their')).toEqual([]);
    // An undone correction is not what the entry shows.
    const undone: HistoryEntry = { ...edited, edits: { ...edited.edits!, index: 0 } };
    expect(entrySegments(undone)).toBe(recognised);
    expect(searchHistory([undone], 'anna')).toEqual([]);
  });

  it('keeps the options but not the file', () => {
    const file = new File(['x'], 'x.wav');
    const options = requestOptions({ ...DEFAULT_VALUES, file, language: 'French' });
    expect('file' in options).toBe(false);
    expect(options.language).toBe('French');
  });

  it('tells entries of one name apart by what they found', () => {
    const plain = entry('one', 1, [segment('hello'), segment('again')]);
    expect(entryFindings(plain)).toBe('English · 2 segments');
    const speakers = entry('one', 2, [
      { ...segment('hola'), language: 'es', speaker: 'speaker_0' },
      { ...segment('hello'), speaker: 'speaker_1' },
    ]);
    expect(entryFindings(speakers)).toBe('Spanish, English · 2 speakers · 2 segments');
    const translated = entry('one', 3, [
      { ...segment('bonjour', 'hello'), language: 'fr', source_language: 'en' },
    ]);
    expect(entryFindings(translated)).toBe('English · 1 segment');
  });

  it('writes sizes as people read them', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1_400_000)).toBe('1.4 MB');
    expect(formatBytes(99_500_000)).toBe('99.5 MB');
    expect(formatBytes(250_000_000)).toBe('250 MB');
  });
});
