import { describe, expect, it } from 'vitest';
import type { RecognisedSegment } from '../../../core/assemble/response';
import { DEFAULT_RECOGNITION_SETTINGS } from '../../stage-settings';
import type { WindowDecode } from './decode-window';
import { RepeatGuard } from './repeat-guard';

function segment(text: string, start = 0): RecognisedSegment {
  const words = text.split(' ').map((w, i) => ({
    text: ` ${w}`,
    start: start + i * 0.3,
    end: start + (i + 1) * 0.3,
    confidence: 0.9,
  }));
  return { text, language: 'en', start, end: start + words.length * 0.3, channel: 0, words };
}

function decode(averageLogProbability: number, compressionRatio = 1.2): WindowDecode {
  return {
    sampled: [],
    probabilities: [],
    attention: [],
    finalAttention: [],
    finished: true,
    noSpeechProbability: 0,
    averageLogProbability,
    compressionRatio,
    temperature: 0,
    conditioned: false,
  };
}

const texts = (segments: RecognisedSegment[]) => segments.map((s) => s.text);

describe('repeat guard', () => {
  it('cuts a phrase loop inside a window whose every decode repeated itself', () => {
    const guard = new RepeatGuard(DEFAULT_RECOGNITION_SETTINGS);
    const [cut] = guard.check(
      [segment('thank you thank you thank you thank you for watching')],
      decode(-0.8, 3.1),
      false,
    );
    expect(cut!.text).toBe('thank you for watching');
    expect(cut!.words.map((w) => w.text.trim())).toEqual(['thank', 'you', 'for', 'watching']);
  });

  it('keeps a sure line said twice, and drops it the third time in a row', () => {
    const guard = new RepeatGuard(DEFAULT_RECOGNITION_SETTINGS);
    const line = 'we meet again tomorrow';
    expect(texts(guard.check([segment(line)], decode(-0.2), false))).toEqual([line]);
    expect(texts(guard.check([segment(line, 10)], decode(-0.2), false))).toEqual([line]);
    expect(texts(guard.check([segment(line, 20)], decode(-0.2), false))).toEqual([]);
  });

  it('drops a repeated line the rules were unsure of, or heard where VAD heard no voice', () => {
    const guard = new RepeatGuard(DEFAULT_RECOGNITION_SETTINGS);
    const line = 'thanks for watching the show';
    guard.check([segment(line)], decode(-0.3), false);
    expect(guard.check([segment(line, 30)], decode(-1.4), false)).toEqual([]);
    expect(guard.check([segment(line, 60)], decode(-0.3), true)).toEqual([]);
    expect(texts(guard.check([segment('yes', 90)], decode(-1.4), false))).toEqual(['yes']);
    expect(texts(guard.check([segment('yes', 95)], decode(-1.4), false))).toEqual(['yes']);
  });
});
