import { describe, expect, it } from 'vitest';
import { emotionOfLabel, softmax, voiceEmotion } from './voice-emotion';

describe('emotionOfLabel', () => {
  it('reads the ways models name their classes', () => {
    expect(['ang', 'Anger', 'ANGRY'].map(emotionOfLabel)).toEqual(['angry', 'angry', 'angry']);
    expect(
      ['hap', 'happiness', 'neu', 'sadness', 'fear', 'disgust', 'ps'].map(emotionOfLabel),
    ).toEqual(['happy', 'happy', 'neutral', 'sad', 'fearful', 'disgusted', 'surprised']);
  });

  it('has no place for a label outside its list', () => {
    expect(emotionOfLabel('bored')).toBeNull();
    expect(emotionOfLabel('LABEL_0')).toBeNull();
  });
});

describe('voiceEmotion', () => {
  it('names the most probable emotion with its probability', () => {
    expect(voiceEmotion([0.1, 0.7, 0.2], ['neu', 'hap', 'sad'])).toEqual({
      emotion: 'happy',
      confidence: 0.7,
    });
  });

  it('adds up labels that are one emotion and leaves out labels it cannot name', () => {
    // "anger" and "ang" are both angry (0.3 + 0.3); "bored" (0.35) counts for none.
    expect(voiceEmotion([0.3, 0.3, 0.35, 0.05], ['anger', 'ang', 'bored', 'neu'])).toEqual({
      emotion: 'angry',
      confidence: 0.6,
    });
  });

  it('names none when the model is not sure', () => {
    expect(voiceEmotion([0.45, 0.35, 0.2], ['neu', 'hap', 'sad'])).toEqual({
      emotion: null,
      confidence: 0.45,
    });
  });
});

describe('softmax', () => {
  it('turns logits into probabilities that add up to 1, large ones included', () => {
    const p = softmax([1000, 1000, 998]);
    expect(p[0]).toBeCloseTo(p[1]!);
    expect(p[0]! + p[1]! + p[2]!).toBeCloseTo(1);
    expect(p[2]).toBeLessThan(p[0]!);
  });
});
