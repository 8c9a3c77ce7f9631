import { describe, expect, it } from 'vitest';
import {
  SPEAKER_NOT_ACTIVATED,
  type Segment,
  type TranscriptionResponse,
} from '../contract/response';
import { renderSrt } from '../format/srt';
import {
  displayName,
  labelFor,
  nameProblem,
  namedResponse,
  namedSegments,
  renameSpeaker,
  speakerLabels,
} from './speaker-names';
import { speakerMapping } from './transcript-edits';

function segment(text: string, begin: number, speaker: string): Segment {
  return {
    words: [{ word: ` ${text}`, time_begin: begin, time_end: begin + 1, confidence: 0.9 }],
    transcription: ` ${text}`,
    language: 'en',
    time_begin: begin,
    time_end: begin + 1,
    speaker,
    channel: 'channel_0',
  };
}

const talk = [
  segment('Hello.', 0, 'speaker_0'),
  segment('Hi there.', 2, 'speaker_1'),
  segment('Bye.', 4, 'speaker_0'),
];

function response(segments: Segment[]): TranscriptionResponse {
  return {
    prediction: renderSrt(segments),
    prediction_raw: {
      transcription: segments,
      speaker_mapping: speakerMapping(segments),
    },
  } as unknown as TranscriptionResponse;
}

describe('speaker names', () => {
  it('lists the speakers in order of first appearance, none without diarization', () => {
    expect(speakerLabels(talk)).toEqual(['speaker_0', 'speaker_1']);
    expect(speakerLabels([segment('x', 0, SPEAKER_NOT_ACTIVATED)])).toEqual([]);
  });

  it('shows a speaker by its name, or by its label when it has none', () => {
    const names = { speaker_0: 'Anna' };
    expect(displayName('speaker_0', names)).toBe('Anna');
    expect(displayName('speaker_1', names)).toBe('speaker_1');
    expect(displayName('speaker_1', { speaker_1: '   ' })).toBe('speaker_1');
  });

  it('renames, trims, and goes back to the label on an empty name', () => {
    let names = renameSpeaker({}, 'speaker_0', '  Anna   Lee ');
    expect(names).toEqual({ speaker_0: 'Anna Lee' });
    names = renameSpeaker(names, 'speaker_0', '   ');
    expect(names).toEqual({});
    expect(renameSpeaker({ speaker_1: 'Tom' }, 'speaker_0', 'speaker_0')).toEqual({
      speaker_1: 'Tom',
    });
  });

  it('refuses a name another speaker is shown by, ignoring case and spaces', () => {
    const labels = ['speaker_0', 'speaker_1'];
    const names = { speaker_0: 'Anna' };
    expect(nameProblem('speaker_1', ' anna ', labels, names)).toMatch(/already called “Anna”/);
    expect(nameProblem('speaker_0', 'speaker_1', labels, names)).toMatch(/“speaker_1”/);
    expect(nameProblem('speaker_0', 'Anna', labels, names)).toBeNull();
    expect(nameProblem('speaker_1', 'Tom', labels, names)).toBeNull();
    // Emptied, a speaker takes its label back, which nobody else is shown by.
    expect(nameProblem('speaker_0', '', labels, names)).toBeNull();
    expect(nameProblem('speaker_1', '', labels, { speaker_0: 'speaker_1' })).toMatch(
      /already called/,
    );
  });

  it('finds the speaker a typed name means', () => {
    const labels = ['speaker_0', 'speaker_1'];
    expect(labelFor('anna', labels, { speaker_0: 'Anna' })).toBe('speaker_0');
    expect(labelFor('speaker_1', labels, {})).toBe('speaker_1');
    expect(labelFor(' Someone new ', labels, {})).toBe('Someone new');
  });

  it('puts the names in the segments, the speaker mapping and the prediction', () => {
    const names = { speaker_1: 'Tom' };
    expect(namedSegments(talk, names).map((s) => s.speaker)).toEqual([
      'speaker_0',
      'Tom',
      'speaker_0',
    ]);
    const named = namedResponse(response(talk), names, 'srt');
    expect(named.prediction_raw.transcription[1]?.speaker).toBe('Tom');
    expect(named.prediction_raw.speaker_mapping.map((s) => s.speaker)).toEqual([
      'speaker_0',
      'Tom',
      'speaker_0',
    ]);
    expect(named.prediction).toContain('\n Tom: Hi there.\n');
    expect(named.prediction).toContain('\n speaker_0: Hello.\n');
    // The response given is left as it was.
    expect(talk[1]?.speaker).toBe('speaker_1');
  });

  it('puts the names in the sentences’ sentiment and its shares by speaker', () => {
    const plain = response(talk);
    const shares = { seconds: 1, positive: 1, negative: 0, neutral: 0, mixed: 0 };
    const sentence = (speaker: string) => ({
      text: 'Hi there.',
      sentiment: 'positive' as const,
      confidence: 0.5,
      emotion: null,
      emotion_confidence: null,
      time_begin: 1,
      time_end: 2,
      channel: 'channel_0',
      speaker,
    });
    const withSentiment = {
      ...plain,
      prediction_raw: {
        ...plain.prediction_raw,
        emotions: [sentence('speaker_0'), sentence('speaker_1')],
        emotions_summary: {
          file: shares,
          speakers: [{ speaker: 'speaker_1', channel: 'channel_0', ...shares }],
        },
      },
    };
    const named = namedResponse(withSentiment, { speaker_1: 'Tom' }, 'srt').prediction_raw;
    expect(named.emotions!.map((e) => e.speaker)).toEqual(['speaker_0', 'Tom']);
    expect(named.emotions_summary!.speakers.map((s) => s.speaker)).toEqual(['Tom']);
    expect(named.emotions_summary!.file).toEqual(shares);
  });

  it('leaves a response without names exactly as it was', () => {
    const original = response(talk);
    expect(namedResponse(original, {}, 'srt')).toBe(original);
  });
});
