import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import type { Segment, TranscriptionResponse } from '../../core/contract/response';
import { setSpeaker } from '../../core/edit/transcript-edits';
import type { AppState } from './app-store';
import { createEditorSlice, currentNames, currentSegments, editorVersions } from './editor-slice';
import { createJobSlice } from './job-slice';

const segment = (speaker: string, begin: number): Segment => ({
  words: [],
  transcription: ' Hello.',
  language: 'en',
  time_begin: begin,
  time_end: begin + 1,
  speaker,
  channel: 'channel_0',
});

const talk = [segment('speaker_0', 0), segment('speaker_1', 2)];
const result = { prediction_raw: { transcription: talk } } as unknown as TranscriptionResponse;

function store() {
  const s = create<AppState>()(
    (...a) => ({ ...createJobSlice(...a), ...createEditorSlice(...a) }) as AppState,
  );
  s.getState().showResult(result, 'talk');
  return s;
}

describe('the editor history', () => {
  it('makes a rename one undoable step, beside the corrections', () => {
    const s = store();
    expect(currentNames(s.getState())).toEqual({});
    s.getState().renameSpeaker('speaker_0', ' Anna ');
    expect(currentNames(s.getState())).toEqual({ speaker_0: 'Anna' });
    s.getState().edit((segments) => setSpeaker(segments, 1, 'speaker_0'));
    // A correction keeps the names; undo takes back one step at a time.
    expect(currentNames(s.getState())).toEqual({ speaker_0: 'Anna' });
    s.getState().undo();
    expect(currentSegments(s.getState())?.[1]?.speaker).toBe('speaker_1');
    expect(currentNames(s.getState())).toEqual({ speaker_0: 'Anna' });
    s.getState().undo();
    expect(currentNames(s.getState())).toEqual({});
    s.getState().redo();
    expect(currentNames(s.getState())).toEqual({ speaker_0: 'Anna' });
  });

  it('adds no step for a name that does not change', () => {
    const s = store();
    s.getState().renameSpeaker('speaker_0', 'speaker_0');
    s.getState().renameSpeaker('speaker_1', '  ');
    expect(s.getState().history).toHaveLength(1);
  });

  it('reads sessions saved before speakers could be named', () => {
    expect(editorVersions([talk])).toEqual([{ segments: talk, names: {} }]);
  });
});
